<?php

namespace App\Support;

/** A container singleton with state: a request's value must not reach the next. */
class Counter
{
    public ?string $value = null;
}
