<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

/**
 * Laravel's own checks on top of the shared contract: a form protected by
 * the CSRF middleware (a session, a Blade view and an encrypted cookie
 * working together across requests).
 */
trait LaravelCases
{
    public function testCsrfTokenFromTheSessionGuardsTheForm(): void
    {
        $client = $this->client();
        $page = $client->get('/csrf');
        $this->assertStatus(200, $page);
        $this->assertSame(1, preg_match('/name="_token" value="([^"]+)"/', $page->body, $m), $page->body);

        $refused = $client->request('POST', '/csrf-form', ['Content-Type' => 'application/x-www-form-urlencoded'], 'name=x');
        $this->assertStatus(419, $refused);

        $stranger = $this->client()->request('POST', '/csrf-form',
            ['Content-Type' => 'application/x-www-form-urlencoded'], '_token=' . urlencode($m[1]) . '&name=x');
        $this->assertStatus(419, $stranger);

        $accepted = $client->request('POST', '/csrf-form',
            ['Content-Type' => 'application/x-www-form-urlencoded'], '_token=' . urlencode($m[1]) . '&name=x');
        $this->assertStatus(200, $accepted);
        $this->assertSame(['name' => 'x'], $accepted->json());
    }

    public function testEloquentModelsBootForEveryRequest(): void
    {
        $client = $this->client();
        for ($i = 0; $i < 3; $i++) {
            $response = $client->get('/eloquent');
            $this->assertStatus(200, $response);
            // A creating listener from booted() fills the slug every time; the
            // model booted with the application keeps its two listeners.
            $this->assertSame(['slug' => true, 'note_listeners' => 1, 'tag_listeners' => 2], $response->json(), "request $i");
        }
    }
}
