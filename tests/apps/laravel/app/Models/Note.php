<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

/** First used by a request: it boots then, and its boot registers a listener. */
class Note extends Model
{
    protected $fillable = ['name'];

    protected static function booted()
    {
        static::creating(function (Note $note) {
            $note->slug = 'slug-' . $note->name;
        });
    }
}
