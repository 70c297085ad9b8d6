--TEST--
HTTP: access_log writes one escaped line per response, in the common or the JSON format
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
foreach (['common', 'json'] as $format) {
    $log = tempnam(sys_get_temp_dir(), 'rapier-access');
    $srv = http_server_start('function ($req, $res) { $res->status(201)->end("hello"); }',
        ['access_log' => $log, 'access_log_format' => $format]);
    http_get($srv->port, '/a?b="c', ['User-Agent: agent"x']);
    /* Refused by the server itself: logged with its status too. */
    http_request($srv->port, "GET / HTTP/9.9\r\nHost: x\r\n\r\n");
    http_report_stop($srv);
    $lines = file($log, FILE_IGNORE_NEW_LINES);
    unlink($log);
    echo count($lines), " lines\n";
    if ($format === 'common') {
        echo preg_replace('/\[[^\]]+\]/', '[date]', $lines[0]), "\n";
    } else {
        $entry = json_decode($lines[0], true, flags: JSON_THROW_ON_ERROR);
        echo $entry['method'], ' ', $entry['uri'], ' ', $entry['status'], ' ', $entry['bytes'], ' ', $entry['user_agent'], "\n";
        var_dump(is_float($entry['duration_ms']) || is_int($entry['duration_ms']));
    }
    echo preg_match('/505/', $lines[1]) ? "error answer logged\n" : "missing 505: {$lines[1]}\n";
}
?>
--EXPECT--
exit: 0
2 lines
127.0.0.1 - - [date] "GET /a?b=\"c HTTP/1.1" 201 5
error answer logged
exit: 0
2 lines
GET /a?b="c 201 5 agent"x
bool(true)
error answer logged
