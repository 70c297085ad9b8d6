<?php

namespace App\Providers;

use App\Models\Tag;
use App\Observers\TagObserver;
use App\Support\Counter;
use Illuminate\Auth\GenericUser;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Auth;
use Illuminate\Support\ServiceProvider;

class AppServiceProvider extends ServiceProvider
{
    public function register()
    {
        $this->app->singleton(Counter::class);
    }

    public function boot()
    {
        // A guard that caches the user it found in the request's X-User
        // header: the next request must not inherit it.
        Auth::viaRequest('header', function (Request $request) {
            $name = $request->header('X-User');

            return $name === null ? null : new GenericUser(['id' => $name, 'name' => $name]);
        });
        // Boots Tag with the application: its listeners are boot state.
        Tag::observe(TagObserver::class);
    }
}
