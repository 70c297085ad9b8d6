--TEST--
HTTP: multipart/form-data fills post and files ($_FILES shape); temp files are removed after the request
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $files = $req->files;
    $report = ["post" => $req->post, "files" => $files, "content" => [], "uploaded" => []];
    foreach ($files as $f) {
        foreach ((array) $f["tmp_name"] as $t) {
            if ($t !== "") {
                $report["content"][] = file_get_contents($t);
                $report["uploaded"][] = is_uploaded_file($t);
            }
        }
    }
    $res->json($report, 200, JSON_INVALID_UTF8_SUBSTITUTE);
}');
$b = 'XyZ-boundary';
$body = "--$b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n"
    . "--$b\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\none\r\n"
    . "--$b\r\nContent-Disposition: form-data; name=\"tags[]\"\r\n\r\ntwo\r\n"
    . "--$b\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"dir/me.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x00binary\r\n"
    . "--$b\r\nContent-Disposition: form-data; name=\"docs[]\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfirst doc\r\n"
    . "--$b\r\nContent-Disposition: form-data; name=\"docs[]\"; filename=\"b.txt\"\r\nContent-Type: text/plain\r\n\r\nsecond doc\r\n"
    . "--$b\r\nContent-Disposition: form-data; name=\"nofile\"; filename=\"\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n"
    . "--$b--\r\n";
$r = http_request($srv->port, "POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=$b\r\n"
    . "Content-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
$got = json_decode($r['body'], true);
echo json_encode($got['post']), "\n";
$tmp = [];
foreach ($got['files'] as &$f) {
    foreach ((array) $f['tmp_name'] as $i => $t) {
        if ($t !== '') {
            $tmp[] = $t;
            is_array($f['tmp_name']) ? $f['tmp_name'][$i] = 'TMP' : $f['tmp_name'] = 'TMP';
        }
    }
}
unset($f);
var_export($got['files']);
echo "\n", json_encode($got['content']), "\n", json_encode($got['uploaded']), "\n";
/* The first request's files are gone by the time the next request is answered. */
$first = $tmp;

/* A real client. */
$f = tempnam(sys_get_temp_dir(), 'rapier-up');
file_put_contents($f, str_repeat("0123456789", 10000));
[$code, $out] = http_curl(['-F', 'name=curl', '-F', "file=@$f;filename=data.bin;type=application/x-test", "http://127.0.0.1:{$srv->port}/"]);
unlink($f);
$got = json_decode($out, true);
echo $code, ' ', $got['post']['name'], ' ', $got['files']['file']['name'], ' ', $got['files']['file']['type'], ' ',
    $got['files']['file']['size'], ' ', $got['content'][0] === str_repeat("0123456789", 10000) ? 'same' : 'differs', "\n";
echo count($first), " temp files of the first request, still present: ", count(array_filter($first, 'file_exists')), "\n";
http_report_stop($srv);
var_dump(file_exists($got['files']['file']['tmp_name']));
?>
--EXPECT--
{"title":"Hello","tags":["one","two"]}
array (
  'avatar' => 
  array (
    'name' => 'me.png',
    'full_path' => 'dir/me.png',
    'type' => 'image/png',
    'tmp_name' => 'TMP',
    'error' => 0,
    'size' => 13,
  ),
  'docs' => 
  array (
    'name' => 
    array (
      0 => 'a.txt',
      1 => 'b.txt',
    ),
    'full_path' => 
    array (
      0 => 'a.txt',
      1 => 'b.txt',
    ),
    'type' => 
    array (
      0 => 'text/plain',
      1 => 'text/plain',
    ),
    'tmp_name' => 
    array (
      0 => 'TMP',
      1 => 'TMP',
    ),
    'error' => 
    array (
      0 => 0,
      1 => 0,
    ),
    'size' => 
    array (
      0 => 9,
      1 => 10,
    ),
  ),
  'nofile' => 
  array (
    'name' => '',
    'full_path' => '',
    'type' => 'application/octet-stream',
    'tmp_name' => '',
    'error' => 4,
    'size' => 0,
  ),
)
["\ufffdPNG\r\n\u0000binary","first doc","second doc"]
[true,true,true]
0 curl data.bin application/x-test 100000 same
3 temp files of the first request, still present: 0
exit: 0
bool(false)
