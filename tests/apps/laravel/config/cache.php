<?php

return [
    'default' => 'array',
    'stores' => [
        'array' => ['driver' => 'array', 'serialize' => false],
        'rapier' => ['driver' => 'rapier', 'table' => 'cache'],
    ],
    // The store of the throttle middleware (null: the default one).
    'limiter' => env('CACHE_LIMITER'),
    'prefix' => 'rapier_test',
];
