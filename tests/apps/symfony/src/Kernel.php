<?php

namespace App;

use Symfony\Bundle\FrameworkBundle\FrameworkBundle;
use Symfony\Bundle\FrameworkBundle\Kernel\MicroKernelTrait;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\HttpKernel\Kernel as BaseKernel;
use Symfony\Component\Routing\Loader\Configurator\RoutingConfigurator;

use function Symfony\Component\DependencyInjection\Loader\Configurator\service;

class Kernel extends BaseKernel
{
    use MicroKernelTrait;

    public function registerBundles(): iterable
    {
        return [new FrameworkBundle()];
    }

    public function getProjectDir(): string
    {
        return dirname(__DIR__);
    }

    public function getCacheDir(): string
    {
        return self::storage() . '/cache/' . $this->environment;
    }

    public function getLogDir(): string
    {
        return self::storage() . '/log';
    }

    public static function storage(): string
    {
        return getenv('RAPIER_APP_STORAGE') ?: sys_get_temp_dir() . '/rapier-app-symfony';
    }

    protected function configureContainer(ContainerConfigurator $container): void
    {
        $container->parameters()->set('app.storage', self::storage());
        $container->extension('framework', [
            'secret' => 'rapier-test-secret',
            'http_method_override' => true,
            'router' => ['utf8' => true],
            'session' => [
                'storage_factory_id' => 'session.storage.factory.native',
                'handler_id' => 'session.handler.native_file',
                'save_path' => '%app.storage%/sessions',
                'name' => 'symfony_session',
                'cookie_samesite' => 'lax',
            ],
        ]);
        $services = $container->services()->defaults()->autowire()->autoconfigure()
            ->bind('string $projectDir', '%kernel.project_dir%')
            ->bind('string $storage', '%app.storage%')
            ->bind('$container', service('service_container'));
        $services->load('App\\', __DIR__ . '/')->exclude([__DIR__ . '/Kernel.php', __DIR__ . '/Support']);
        $services->load('App\\Controller\\', __DIR__ . '/Controller/')->tag('controller.service_arguments');
    }

    protected function configureRoutes(RoutingConfigurator $routes): void
    {
        $app = Controller\AppController::class;
        $routes->add('home', '/')->controller([$app, 'home']);
        $routes->add('json', '/json')->controller([$app, 'json']);
        $routes->add('user', '/users/{id}')->controller([$app, 'user'])->requirements(['id' => '\\d+']);
        $routes->add('echo', '/echo')->controller([$app, 'echo'])->methods(['POST']);
        $routes->add('form', '/form')->controller([$app, 'form'])->methods(['POST', 'PUT']);
        $routes->add('upload', '/upload')->controller([$app, 'upload'])->methods(['POST']);
        $routes->add('body', '/body')->controller([$app, 'body'])->methods(['POST', 'PUT']);
        $routes->add('session', '/session')->controller([$app, 'session']);
        $routes->add('redirect', '/redirect')->controller([$app, 'redirect']);
        $routes->add('cookies_set', '/cookies/set')->controller([$app, 'setCookies']);
        $routes->add('cookies', '/cookies')->controller([$app, 'cookies']);
        $routes->add('error', '/error')->controller([$app, 'error']);
        $routes->add('native', '/native')->controller([$app, 'native']);
        $routes->add('whoami', '/whoami')->controller([$app, 'whoami']);
        $routes->add('stream', '/stream')->controller([$app, 'stream']);
        $routes->add('events', '/events')->controller([$app, 'events']);
        $routes->add('events_seen', '/events-seen')->controller([$app, 'eventsSeen']);
        $routes->add('hints', '/hints')->controller([$app, 'hints']);
        $routes->add('download', '/download')->controller([$app, 'download']);
        $routes->add('globals', '/globals')->controller([$app, 'globals']);
        $routes->add('pid', '/pid')->controller([$app, 'pid']);
        $routes->add('exit', '/exit')->controller([$app, 'exitEarly']);
        $routes->add('stream_exit', '/stream-exit')->controller([$app, 'streamExit']);
        $routes->add('dd', '/dd')->controller([$app, 'dumpAndDie']);
        $routes->add('settings_change', '/settings/change')->controller([$app, 'changeSettings']);
        $routes->add('settings', '/settings')->controller([$app, 'settings']);
        $routes->add('leak_set', '/leak/set')->controller([Controller\ProbeController::class, 'set']);
        $routes->add('leak_get', '/leak/get')->controller([Controller\ProbeController::class, 'get']);
    }
}
