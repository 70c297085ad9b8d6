<?php

namespace App\Controller;

use App\Service\CurrentUser;
use App\Support\Probe;
use RuntimeException;
use Symfony\Component\HttpFoundation\BinaryFileResponse;
use Symfony\Component\HttpFoundation\Cookie;
use Symfony\Component\HttpFoundation\JsonResponse;
use Symfony\Component\HttpFoundation\RedirectResponse;
use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\HttpFoundation\ResponseHeaderBag;
use Symfony\Component\HttpFoundation\StreamedResponse;

/** The routes every app in tests/apps/ serves alike (tests/Adapter/AppContract.php). */
class AppController
{
    public function __construct(private string $projectDir, private string $storage)
    {
    }

    public function home(): Response
    {
        return new Response('<h1>Hello from symfony</h1>');
    }

    public function json(Request $request): JsonResponse
    {
        return new JsonResponse(['framework' => 'symfony', 'hello' => $request->query->get('name')]);
    }

    /** ?exit=1: an exit() inside a route with a parameter (its metrics label is still the route's). */
    public function user(Request $request, int $id): JsonResponse
    {
        if ($request->query->get('exit')) {
            exit('bye');
        }

        return new JsonResponse(['id' => $id]);
    }

    public function echo(Request $request): JsonResponse
    {
        return new JsonResponse([
            'json' => $request->toArray(),
            'query' => $request->query->all(),
            'header' => $request->headers->get('X-Test'),
        ]);
    }

    public function form(Request $request): JsonResponse
    {
        return new JsonResponse([
            'method' => $request->getMethod(),
            'name' => $request->request->get('name'),
            'tags' => $request->request->all()['tags'] ?? null,
        ]);
    }

    public function upload(Request $request): JsonResponse
    {
        $file = $request->files->get('doc');
        $size = $file->getSize();
        $hash = sha1_file($file->getPathname());
        $moved = $file->move($this->storage . '/uploads', bin2hex(random_bytes(8)));

        return new JsonResponse([
            'name' => $file->getClientOriginalName(),
            'size' => $size,
            'sha1' => $hash,
            'stored' => sha1_file($moved->getPathname()) === $hash,
        ]);
    }

    /**
     * The raw body read twice (a body Rapier spooled to a file reaches the
     * app as a stream, which must rewind), and the URI of the stream the
     * request holds it in.
     */
    public function body(Request $request): JsonResponse
    {
        $content = $request->getContent();

        return new JsonResponse([
            'size' => strlen($content),
            'sha1' => sha1($content),
            'again' => $request->getContent() === $content,
            // Code written for php-fpm reads the body itself.
            'input' => sha1((string) file_get_contents('php://input')),
            'stream' => stream_get_meta_data($request->getContent(true))['uri'] ?? null,
        ]);
    }

    public function session(Request $request): JsonResponse
    {
        $session = $request->getSession();
        if ($request->query->has('put')) {
            $session->set('value', $request->query->get('put'));
        }

        return new JsonResponse(['value' => $session->get('value')]);
    }

    public function redirect(): RedirectResponse
    {
        return new RedirectResponse('/json?name=redirected');
    }

    public function setCookies(): Response
    {
        $response = new Response('cookies set');
        $response->headers->setCookie(Cookie::create('flavor', 'chocolate', time() + 600));
        $response->headers->setCookie(Cookie::create('size', 'large', time() + 600));

        return $response;
    }

    public function cookies(Request $request): JsonResponse
    {
        return new JsonResponse([
            'flavor' => $request->cookies->get('flavor'),
            'size' => $request->cookies->get('size'),
        ]);
    }

    public function error(): Response
    {
        throw new RuntimeException('secret-boom');
    }

    public function native(): Response
    {
        echo 'echoed;';
        header('X-Native: yes');
        setcookie('native', 'n1');

        return new Response('body');
    }

    public function whoami(CurrentUser $user): JsonResponse
    {
        return new JsonResponse(['user' => $user->name]);
    }

    public function stream(): StreamedResponse
    {
        return new StreamedResponse(function () {
            echo 'chunk1';
            flush();
            echo 'chunk2';
        });
    }

    /** A Server-Sent Events loop that stops once its client leaves (tests/apps/events.php). */
    public function events(Request $request): StreamedResponse
    {
        require_once $this->projectDir . '/../events.php';
        $id = (string) $request->query->get('id');
        $heed = $request->query->get('heed') !== '0';

        return new StreamedResponse(
            static fn () => rapier_test_event_stream($id, $heed),
            200,
            ['Content-Type' => 'text/event-stream', 'X-Accel-Buffering' => 'no'],
        );
    }

    /** 103 Early Hints as sendEarlyHints() sends them in Symfony 6.3+ (tests/apps/hints.php). */
    public function hints(): Response
    {
        require_once $this->projectDir . '/../hints.php';
        $hinted = rapier_test_send_early_hints();

        return new Response(json_encode(['hinted' => $hinted]), 200, rapier_test_hinted_response_headers());
    }

    public function eventsSeen(Request $request): Response
    {
        require_once $this->projectDir . '/../events.php';

        return new Response(rapier_test_events_seen((string) $request->query->get('id')));
    }

    /** PHP's process-wide settings: changed by one request, read by the next (tests/apps/settings.php). */
    public function changeSettings(): JsonResponse
    {
        require_once $this->projectDir . '/../settings.php';

        return new JsonResponse(rapier_test_settings_change());
    }

    public function settings(): JsonResponse
    {
        require_once $this->projectDir . '/../settings.php';

        return new JsonResponse(rapier_test_settings());
    }

    public function pid(): JsonResponse
    {
        return new JsonResponse(['pid' => getmypid()]);
    }

    /** exit() ends the request with what PHP has; the state it set must not reach the next request. */
    public function exitEarly(): never
    {
        Probe::$value = 'static';
        $GLOBALS['probe_global'] = 'global';
        http_response_code(202);
        header('X-Exit: yes');
        echo 'echoed;';
        exit('bye');
    }

    public function streamExit(): StreamedResponse
    {
        return new StreamedResponse(function () {
            echo 'chunk1;';
            flush();
            exit('bye');
        });
    }

    public function dumpAndDie(): never
    {
        dd(['answer' => 42]);
    }

    public function download(): BinaryFileResponse
    {
        $response = new BinaryFileResponse($this->projectDir . '/resources/files/download.txt');
        $response->setContentDisposition(ResponseHeaderBag::DISPOSITION_ATTACHMENT, 'download.txt');

        return $response;
    }

    public function globals(): JsonResponse
    {
        return new JsonResponse([
            'get' => $_GET,
            'cookie' => $_COOKIE,
            'method' => $_SERVER['REQUEST_METHOD'] ?? null,
            'uri' => $_SERVER['REQUEST_URI'] ?? null,
            'script' => $_SERVER['SCRIPT_NAME'] ?? null,
        ]);
    }
}
