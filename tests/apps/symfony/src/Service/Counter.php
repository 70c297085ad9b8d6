<?php

namespace App\Service;

use Symfony\Contracts\Service\ResetInterface;

/**
 * A shared service with per-request state. Symfony's contract for workers
 * that serve many requests: such a service implements ResetInterface
 * (autoconfigure tags it kernel.reset) and is reset after each request.
 */
class Counter implements ResetInterface
{
    public ?string $value = null;

    public function reset(): void
    {
        $this->value = null;
    }
}
