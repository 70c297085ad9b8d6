<?php

/*
 * The application, as `rapier serve` and public/index.php load it: the
 * Kernel, in the prod environment. Its cache, logs and sessions go to
 * $RAPIER_APP_STORAGE, never into the source tree.
 */

require_once __DIR__ . '/vendor/autoload.php';

return new App\Kernel('prod', false);
