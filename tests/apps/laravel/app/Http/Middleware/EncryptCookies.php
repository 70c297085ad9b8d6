<?php

namespace App\Http\Middleware;

use Illuminate\Cookie\Middleware\EncryptCookies as Middleware;

class EncryptCookies extends Middleware
{
    /** The test suite reads and sends these in clear. */
    protected $except = ['flavor', 'size', 'native', 'c'];
}
