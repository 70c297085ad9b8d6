<?php
/*
 * Reads PHPUnit's JUnit XML report and prints "passed failed skipped" on one
 * line, plus the name of each test that did not pass on stderr. A test fails
 * when it has a <failure>, <error> or <warning> child: PHPUnit reports
 * warnings and risky tests there, and the suite is strict about both.
 */
declare(strict_types=1);

if ($argc !== 2) {
	fwrite(STDERR, "usage: junit-summary.php REPORT.xml\n");
	exit(2);
}

$doc = new DOMDocument();
if (!is_file($argv[1]) || !@$doc->load($argv[1])) {
	fwrite(STDERR, "junit-summary: cannot read {$argv[1]}\n");
	exit(1);
}

$passed = $failed = $skipped = 0;
foreach ($doc->getElementsByTagName('testcase') as $case) {
	$outcome = 'passed';
	foreach ($case->childNodes as $child) {
		if (in_array($child->nodeName, ['failure', 'error', 'warning'], true)) {
			$outcome = 'failed';
			break;
		}
		if ($child->nodeName === 'skipped') {
			$outcome = 'skipped';
		}
	}
	$$outcome++;
	if ($outcome === 'failed') {
		$class = $case->getAttribute('class');
		$name = ($class !== '' ? $class . '::' : '') . $case->getAttribute('name');
		fwrite(STDERR, "  FAILED: $name\n");
	}
}

echo "$passed $failed $skipped\n";
