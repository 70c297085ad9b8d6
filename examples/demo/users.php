<?php

declare(strict_types=1);

/*
 * The demo's users table: 10,000 rows from a seeded generator, so every run
 * (and the benchmark suite) sees the same data.
 */

function demo_seed_database(string $path, int $count): void
{
    $pdo = new PDO('sqlite:' . $path, options: [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
    $pdo->exec('CREATE TABLE IF NOT EXISTS users (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, password TEXT NOT NULL,
        remember_token TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)');
    if ((int) $pdo->query('SELECT COUNT(*) FROM users')->fetchColumn() === $count) {
        return;
    }
    $pdo->exec('DELETE FROM users');
    mt_srand(20261121);
    $insert = $pdo->prepare('INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?)');
    $pdo->beginTransaction();
    for ($id = 1; $id <= $count; $id++) {
        $name = sprintf('user%05d', $id);
        $created = date('Y-m-d H:i:s', 1700000000 + mt_rand(0, 30000000));
        $insert->execute([$id, $name, "$name@example.com", sprintf('$2y$10$%053d', mt_rand()),
            bin2hex(pack('N*', mt_rand(), mt_rand(), mt_rand(), mt_rand())), $created, $created]);
    }
    $pdo->commit();
}

/** @return array<string, mixed>|null */
function demo_find_user(PDO $pdo, int $id): ?array
{
    static $statements = [];
    $statement = $statements[spl_object_id($pdo)] ??= $pdo->prepare(
        'SELECT id, name, email, created_at, updated_at FROM users WHERE id = ?'
    );
    $statement->execute([$id]);
    $row = $statement->fetch(PDO::FETCH_ASSOC);
    $statement->closeCursor();
    return $row === false ? null : $row;
}
