--TEST--
HTTP: Response::json() encodes with flags and status; an unencodable value throws JsonException, with json_last_error_msg()'s words, before anything is sent or set
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    switch ($req->path) {
        case "/flags":
            $res->json(["url" => "a/b", "u" => "é"], 201, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
            break;
        case "/type":
            $res->header("Content-Type", "application/problem+json");
            $res->json(["title" => "nope"], 422);
            break;
        case "/nan":
        case "/utf8":
            try {
                $res->json(["x" => $req->path === "/nan" ? NAN : "\xff"], 422);
            } catch (JsonException $e) {
                $res->end(get_class($e) . " " . $e->getCode() . " " . $e->getMessage());
            }
            break;
        case "/partial":
            $res->json(["x" => INF, "y" => "\xff", "z" => 1], 200, JSON_PARTIAL_OUTPUT_ON_ERROR);
            break;
    }
}');
/* As json_encode(): NAN and invalid UTF-8 are errors unless JSON_PARTIAL_OUTPUT_ON_ERROR is given. */
foreach (['/flags', '/type', '/nan', '/utf8', '/partial'] as $p) {
    $r = http_get($srv->port, $p);
    echo $r['status'], ' ', $r['headers']['content-type'][0] ?? '(no type)', ' ', $r['body'], "\n";
}
http_report_stop($srv);
?>
--EXPECT--
201 application/json {"url":"a/b","u":"é"}
422 application/problem+json {"title":"nope"}
200 (no type) JsonException 7 Cannot encode the response as JSON: Inf and NaN cannot be JSON encoded (json_last_error() code 7)
200 (no type) JsonException 5 Cannot encode the response as JSON: Malformed UTF-8 characters, possibly incorrectly encoded (json_last_error() code 5)
200 application/json {"x":0,"y":null,"z":1}
exit: 0
