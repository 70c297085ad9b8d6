<?php

namespace App\EventListener;

use App\Service\CurrentUser;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Component\HttpKernel\Event\RequestEvent;
use Symfony\Component\HttpKernel\KernelEvents;

/** Remembers the user of a request that names one; a request that does not must see nobody. */
class UserListener implements EventSubscriberInterface
{
    public function __construct(private CurrentUser $user)
    {
    }

    public static function getSubscribedEvents(): array
    {
        return [KernelEvents::REQUEST => 'onRequest'];
    }

    public function onRequest(RequestEvent $event): void
    {
        $name = $event->getRequest()->headers->get('X-User');
        if ($name !== null) {
            $this->user->name = $name;
        }
    }
}
