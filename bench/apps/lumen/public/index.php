<?php

/*
 * The php-fpm front controller of the Lumen benchmark app: boots the whole
 * application for every request, as Lumen does under php-fpm.
 */

declare(strict_types=1);

$app = require __DIR__ . '/../bootstrap/app.php';
$app->run();
