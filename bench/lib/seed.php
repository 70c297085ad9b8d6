<?php

/*
 * Loads the benchmark data: a `users` table of 10,000 rows, the same on every
 * run (mt_rand seeded with a fixed value: PHP's Mt19937 sequence is stable
 * across versions), and user 1 as JSON in Redis. Then writes, into the
 * directory given as argument, the exact bodies that /user/42 and /redis must
 * answer, for the pre-check of every server (bench/lib/probe.php).
 *
 *     php bench/lib/seed.php EXPECT_DIR      (BENCH_MYSQL_* and BENCH_REDIS_* set)
 *
 * The password column holds bcrypt-shaped strings drawn from the same
 * sequence, not real hashes: hashing 10,000 passwords would take minutes and
 * no endpoint checks a password. created_at/updated_at are DATETIME rather
 * than Laravel's TIMESTAMP so that the bytes read back do not depend on the
 * machine's time zone.
 */

declare(strict_types=1);

use Bench\Endpoints;

require __DIR__ . '/../apps/plain/Endpoints.php';

const SEED = 20261121;
const BATCH = 500;
const FIRST_NAMES = ['Ada', 'Alan', 'Barbara', 'Brian', 'Claude', 'Dennis', 'Donald', 'Edsger', 'Frances', 'Grace',
    'Guido', 'Hedy', 'Ivan', 'John', 'Ken', 'Leslie', 'Linus', 'Margaret', 'Niklaus', 'Radia', 'Rasmus', 'Sophie', 'Tim', 'Yukihiro'];
const LAST_NAMES = ['Allen', 'Backus', 'Cerf', 'Dijkstra', 'Engelbart', 'Floyd', 'Goldberg', 'Hamilton', 'Hopper', 'Kay',
    'Knuth', 'Lamport', 'Liskov', 'Lovelace', 'McCarthy', 'Perlman', 'Ritchie', 'Stroustrup', 'Thompson', 'Torvalds', 'Turing', 'Wirth'];
const ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function random_string(int $length, int $alphabetStart = 0): string
{
    $s = '';
    for ($i = 0; $i < $length; $i++) {
        $s .= ALPHABET[mt_rand($alphabetStart, strlen(ALPHABET) - 1)];
    }

    return $s;
}

/** @return list<int|string> */
function user_row(int $id): array
{
    $first = FIRST_NAMES[mt_rand(0, count(FIRST_NAMES) - 1)];
    $last = LAST_NAMES[mt_rand(0, count(LAST_NAMES) - 1)];
    // 2024-01-01 00:00:00 UTC plus up to two years, then updated up to 90 days later.
    $created = 1704067200 + mt_rand(0, 2 * 365 * 86400);
    $updated = $created + mt_rand(0, 90 * 86400);

    return [
        $id,
        "$first $last",
        strtolower("$first.$last.$id@example.com"),
        '$2y$10$' . random_string(53),
        random_string(60, 2),
        gmdate('Y-m-d H:i:s', $created),
        gmdate('Y-m-d H:i:s', $updated),
    ];
}

function create_users(PDO $pdo): void
{
    $pdo->exec('DROP TABLE IF EXISTS users');
    $pdo->exec('CREATE TABLE users (
        id INT UNSIGNED NOT NULL PRIMARY KEY,
        name VARCHAR(255) NOT NULL,
        email VARCHAR(255) NOT NULL UNIQUE,
        password VARCHAR(255) NOT NULL,
        remember_token VARCHAR(100) NULL,
        created_at DATETIME NULL,
        updated_at DATETIME NULL
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4');

    mt_srand(SEED);
    $insert = $pdo->prepare('INSERT INTO users VALUES ' . implode(',', array_fill(0, BATCH, '(?,?,?,?,?,?,?)')));
    $pdo->beginTransaction();
    for ($id = 1; $id <= Endpoints::USERS; $id += BATCH) {
        $values = [];
        for ($i = $id; $i < $id + BATCH; $i++) {
            array_push($values, ...user_row($i));
        }
        $insert->execute($values);
    }
    $pdo->commit();
}

if ($argc !== 2) {
    fwrite(STDERR, "usage: php seed.php EXPECT_DIR\n");
    exit(2);
}
$expectDir = $argv[1];

$pdo = Endpoints::connectMysql(false);
create_users($pdo);

$redis = Endpoints::connectRedis(false);
$redis->set(Endpoints::REDIS_KEY, json_encode(Endpoints::user($pdo, 1), JSON_THROW_ON_ERROR));

@mkdir($expectDir, 0777, true);
file_put_contents("$expectDir/user.json", json_encode(Endpoints::user($pdo, 42), JSON_THROW_ON_ERROR));
file_put_contents("$expectDir/redis.json", $redis->get(Endpoints::REDIS_KEY));
