<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

/** Observed from a service provider, so it boots with the application. */
class Tag extends Model
{
    protected static function booted()
    {
        static::creating(fn () => null);
    }
}
