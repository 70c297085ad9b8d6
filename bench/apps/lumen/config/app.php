<?php

declare(strict_types=1);

return [
    'name' => 'rapier-bench',
    'env' => 'production',
    'debug' => false,
    'timezone' => 'UTC',
    'locale' => 'en',
];
