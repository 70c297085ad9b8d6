<?php

namespace App\Http\Middleware;

use Illuminate\Foundation\Http\Middleware\VerifyCsrfToken as Middleware;

class VerifyCsrfToken extends Middleware
{
    /** The routes every framework app shares; /csrf-form keeps the check. */
    protected $except = ['echo', 'form', 'upload', 'body'];
}
