<?php

return [
    'defaults' => ['guard' => 'header'],
    'guards' => [
        'header' => ['driver' => 'header'],
    ],
    'providers' => [],
];
