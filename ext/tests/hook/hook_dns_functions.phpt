--TEST--
Hook: gethostbyname(), gethostbynamel(), gethostbyaddr(), dns_get_record(), checkdnsrr() and getmxrr() give in coroutines, several at once, what they give outside one, warnings and errors included
--EXTENSIONS--
rapier
--FILE--
<?php
// Only names that need no DNS server: /etc/hosts, addresses, and names
// glibc refuses before asking (an empty label), or PHP before calling it.
function calls(): array
{
    $calls = [
        'gethostbyname localhost' => fn () => gethostbyname('localhost'),
        'gethostbyname address' => fn () => gethostbyname('127.0.0.1'),
        'gethostbyname empty label' => fn () => gethostbyname('a..b'),
        'gethostbyname too long' => fn () => gethostbyname(str_repeat('a', 256)) === str_repeat('a', 256),
        'gethostbynamel localhost' => fn () => gethostbynamel('localhost'),
        'gethostbynamel empty label' => fn () => gethostbynamel('a..b'),
        'gethostbynamel too long' => fn () => gethostbynamel(str_repeat('a', 256)),
        'gethostbyaddr 127.0.0.1' => fn () => gethostbyaddr('127.0.0.1'),
        'gethostbyaddr not an address' => fn () => gethostbyaddr('localhost'),
        'dns_get_record empty label' => fn () => dns_get_record('a..b', DNS_A | DNS_MX),
        'checkdnsrr empty label' => fn () => checkdnsrr('a..b', 'A'),
        'getmxrr empty label' => fn () => [getmxrr('a..b', $hosts), $hosts],
        'gethostbyname null byte' => fn () => gethostbyname("local\0host"),
        'gethostbyaddr array' => fn () => gethostbyaddr([]),
    ];
    $results = [];
    foreach ($calls as $name => $call) {
        error_clear_last();
        try {
            $result = @$call();
        } catch (Throwable $e) {
            $result = get_class($e) . ': ' . $e->getMessage();
        }
        $results[$name] = [$result, error_get_last()['message'] ?? null];
    }

    return $results;
}

var_dump(Rapier\HOOK_DNS === 512, (Rapier\HOOK_ALL & Rapier\HOOK_DNS) !== 0);
$stock = calls();
Rapier\run(function () use ($stock) {
    $results = [];
    for ($i = 0; $i < 8; $i++) {
        Rapier\go(function () use ($i, &$results) {
            $results[$i] = calls();
        });
    }
    Rapier\Coroutine::sleep(0);
    while (count($results) < 8) {
        Rapier\Coroutine::sleep(0.001);
    }
    foreach ($results as $i => $result) {
        if ($result !== $stock) {
            echo "coroutine $i differs:\n";
            var_dump($result);
        }
    }
    echo "coroutines done\n";
});
var_dump($stock);
?>
--EXPECT--
bool(true)
bool(true)
coroutines done
array(14) {
  ["gethostbyname localhost"]=>
  array(2) {
    [0]=>
    string(9) "127.0.0.1"
    [1]=>
    NULL
  }
  ["gethostbyname address"]=>
  array(2) {
    [0]=>
    string(9) "127.0.0.1"
    [1]=>
    NULL
  }
  ["gethostbyname empty label"]=>
  array(2) {
    [0]=>
    string(4) "a..b"
    [1]=>
    NULL
  }
  ["gethostbyname too long"]=>
  array(2) {
    [0]=>
    bool(true)
    [1]=>
    string(63) "gethostbyname(): Host name cannot be longer than 255 characters"
  }
  ["gethostbynamel localhost"]=>
  array(2) {
    [0]=>
    array(1) {
      [0]=>
      string(9) "127.0.0.1"
    }
    [1]=>
    NULL
  }
  ["gethostbynamel empty label"]=>
  array(2) {
    [0]=>
    bool(false)
    [1]=>
    NULL
  }
  ["gethostbynamel too long"]=>
  array(2) {
    [0]=>
    bool(false)
    [1]=>
    string(64) "gethostbynamel(): Host name cannot be longer than 255 characters"
  }
  ["gethostbyaddr 127.0.0.1"]=>
  array(2) {
    [0]=>
    string(9) "localhost"
    [1]=>
    NULL
  }
  ["gethostbyaddr not an address"]=>
  array(2) {
    [0]=>
    bool(false)
    [1]=>
    string(60) "gethostbyaddr(): Address is not a valid IPv4 or IPv6 address"
  }
  ["dns_get_record empty label"]=>
  array(2) {
    [0]=>
    bool(false)
    [1]=>
    string(56) "dns_get_record(): An unexpected server failure occurred."
  }
  ["checkdnsrr empty label"]=>
  array(2) {
    [0]=>
    bool(false)
    [1]=>
    NULL
  }
  ["getmxrr empty label"]=>
  array(2) {
    [0]=>
    array(2) {
      [0]=>
      bool(false)
      [1]=>
      array(0) {
      }
    }
    [1]=>
    NULL
  }
  ["gethostbyname null byte"]=>
  array(2) {
    [0]=>
    string(84) "ValueError: gethostbyname(): Argument #1 ($hostname) must not contain any null bytes"
    [1]=>
    NULL
  }
  ["gethostbyaddr array"]=>
  array(2) {
    [0]=>
    string(81) "TypeError: gethostbyaddr(): Argument #1 ($ip) must be of type string, array given"
    [1]=>
    NULL
  }
}
