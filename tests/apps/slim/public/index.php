<?php

// The front controller under nginx + php-fpm.

$app = require __DIR__ . '/../app.php';

$app->run();
