--TEST--
HTTP: PHP's upload limits apply as under php-fpm: a file over upload_max_filesize gets UPLOAD_ERR_INI_SIZE and one over the form's MAX_FILE_SIZE UPLOAD_ERR_FORM_SIZE (no file kept, size 0, PHP's notice); file inputs past max_file_uploads are left out of files with PHP's warning; file_uploads off leaves out every file but not the fields
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$dir = sys_get_temp_dir() . '/rapier-upload-limits-' . getmypid();
mkdir($dir);
$handler = 'function ($req, $res) {
    $files = [];
    foreach ($req->files as $name => $f) {
        $files[] = "$name: error {$f["error"]}, size {$f["size"]}, " . ($f["tmp_name"] === "" ? "no file"
            : (file_get_contents($f["tmp_name"]) === str_repeat($name[0], $f["size"]) ? "intact" : "wrong"));
    }
    $res->end(implode("; ", $files) . " | fields: " . implode(",", array_keys($req->post))
        . " | spooled files now: " . count(glob(ini_get("upload_tmp_dir") . "/*")));
}';
$b = 'LimitsB';
$file = fn(string $name, int $size, ?string $filename = null) => "--$b\r\nContent-Disposition: form-data; name=\"$name\"; filename=\""
    . ($filename ?? "$name.bin") . "\"\r\n\r\n" . str_repeat($name[0], $size) . "\r\n";
$field = fn(string $name, string $value) => "--$b\r\nContent-Disposition: form-data; name=\"$name\"\r\n\r\n$value\r\n";
$post = function (int $port, string $parts) use ($b): string {
    $body = $parts . "--$b--\r\n";
    $r = http_request($port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=$b\r\n"
        . "Content-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
    return $r ? "{$r['status']} {$r['body']}" : 'no response';
};

$srv = http_server_start($handler, [], '', '', ['upload_tmp_dir' => $dir, 'upload_max_filesize' => '1000', 'max_file_uploads' => '2']);
echo "1000 bytes: ", $post($srv->port, $file('a', 1000)), "\n";
echo "1001 bytes: ", $post($srv->port, $file('b', 1001)), "\n";
echo "1 MB: ", $post($srv->port, $file('c', 1000000) . $field('after', 'x')), "\n";
echo "MAX_FILE_SIZE 500: ", $post($srv->port, $field('MAX_FILE_SIZE', '500') . $file('d', 600) . $file('e', 400)), "\n";
echo "three files, two allowed: ", $post($srv->port, $file('f', 10) . $file('g', 20) . $file('h', 30) . $file('i', 0, '') . $field('last', 'y')), "\n";
echo "an empty input counts as PHP counts: ", $post($srv->port, $file('j', 0, '') . $file('k', 5) . $file('l', 6)), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
/* Logged once each (and displayed: the test server shows errors too). */
$log = implode("\n", preg_grep('/^PHP /', explode("\n", $r['err'])));
echo "notices: ", substr_count($log, 'upload_max_filesize of 1000 bytes exceeded - file [b=b.bin] not saved'),
    substr_count($log, 'upload_max_filesize of 1000 bytes exceeded - file [c=c.bin] not saved'),
    substr_count($log, 'MAX_FILE_SIZE of 500 bytes exceeded - file [d=d.bin] not saved'), "\n";
echo "warnings: ", substr_count($log, 'Maximum number of allowable file uploads has been exceeded'), "\n";

$srv = http_server_start($handler, [], '', '', ['upload_tmp_dir' => $dir, 'file_uploads' => '0']);
echo "file_uploads off: ", $post($srv->port, $field('before', '1') . $file('m', 10) . $field('after', '2')), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
echo "files left: ", count(glob("$dir/*")), "\n";
rmdir($dir);
?>
--EXPECT--
1000 bytes: 200 a: error 0, size 1000, intact | fields:  | spooled files now: 1
1001 bytes: 200 b: error 1, size 0, no file | fields:  | spooled files now: 0
1 MB: 200 c: error 1, size 0, no file | fields: after | spooled files now: 0
MAX_FILE_SIZE 500: 200 d: error 2, size 0, no file; e: error 0, size 400, intact | fields: MAX_FILE_SIZE | spooled files now: 1
three files, two allowed: 200 f: error 0, size 10, intact; g: error 0, size 20, intact | fields: last | spooled files now: 2
an empty input counts as PHP counts: 200 j: error 4, size 0, no file; k: error 0, size 5, intact; l: error 0, size 6, intact | fields:  | spooled files now: 2
exit: 0
notices: 111
warnings: 1
file_uploads off: 200  | fields: before,after | spooled files now: 0
exit: 0
files left: 0
