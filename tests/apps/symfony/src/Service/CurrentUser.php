<?php

namespace App\Service;

use Symfony\Contracts\Service\ResetInterface;

/** The user named by the request's X-User header (see UserListener). */
class CurrentUser implements ResetInterface
{
    public ?string $name = null;

    public function reset(): void
    {
        $this->name = null;
    }
}
