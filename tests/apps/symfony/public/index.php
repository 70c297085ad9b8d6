<?php

// The front controller under nginx + php-fpm (a Symfony 5.4 index.php without symfony/runtime).

use Symfony\Component\HttpFoundation\Request;

$kernel = require __DIR__ . '/../app.php';

$request = Request::createFromGlobals();
$response = $kernel->handle($request);
$response->send();
$kernel->terminate($request, $response);
