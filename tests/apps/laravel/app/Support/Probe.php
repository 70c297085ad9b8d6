<?php

namespace App\Support;

/** Per-request state in a static property: must not outlive its request. */
class Probe
{
    public static ?string $value = null;
}
