<?php

return [
    'default' => 'array',
    'stores' => [
        'array' => ['driver' => 'array', 'serialize' => false],
        'rapier' => ['driver' => 'rapier', 'table' => 'cache'],
    ],
    'prefix' => 'rapier_test',
];
