<?php

/*
 * 103 Early Hints for the apps' /hints route (tests/Adapter/AppContract.php),
 * sent as Symfony 6.3+'s AbstractController::sendEarlyHints() sends them
 * (Debian's Symfony 5.4 has no such method): only where the server can
 * send a 103, which headers_send() existing tells (FrankenPHP, Rapier's
 * adapters), each header set through header(), then headers_send(103).
 * The route then answers with a response that sets the same Link headers
 * again, as Symfony renders into the response it hinted with.
 */

declare(strict_types=1);

const RAPIER_TEST_HINT_LINKS = ['</app.css>; rel=preload; as=style', '</app.js>; rel=preload; as=script'];

/** Whether the 103 went out. */
function rapier_test_send_early_hints(): bool
{
    if (!function_exists('headers_send')) {
        return false;
    }
    foreach (RAPIER_TEST_HINT_LINKS as $link) {
        header("Link: $link", false);
    }
    // Replaced by the final response's own (as Symfony replaces its Date and Cache-Control).
    header('X-Hint-Stage: early');
    // Set only here: it stays for the final response, as under FrankenPHP.
    header('X-Hinted-Only: yes');

    return headers_send(103) === 1;
}

/** @return array<string, list<string>> the final response's headers */
function rapier_test_hinted_response_headers(): array
{
    return ['Link' => RAPIER_TEST_HINT_LINKS, 'X-Hint-Stage' => ['final']];
}
