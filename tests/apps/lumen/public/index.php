<?php

// The front controller under nginx + php-fpm, as in a Lumen 8 skeleton.

$app = require __DIR__ . '/../bootstrap/app.php';

$app->run();
