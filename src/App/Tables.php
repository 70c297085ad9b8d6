<?php

declare(strict_types=1);

namespace Rapier\App;

use Rapier\Exception;
use Rapier\Table;
use TypeError;
use ValueError;

/**
 * Shared-memory tables for apps served by `rapier serve`. The master makes
 * the tables the config file declares before it starts the workers, so
 * every worker, task worker and --watch reload sees the same rows:
 *
 *     // rapier.php
 *     'tables' => ['visits' => ['size' => 10000, 'columns' => ['hits' => 'int', 'last' => 'float']]],
 *
 *     // in the app
 *     Rapier\App\Tables::get('visits')->incr($path, 'hits');
 *
 * An app cannot make them itself: it is loaded in each worker, after the
 * fork, where a new Table would be that worker's alone.
 */
final class Tables
{
    /** @var array<string, Table> */
    private static array $tables = [];

    /**
     * Makes the declared tables; called once, before the server starts.
     *
     * @param array<string, array{size: int, columns: array<string, string>}> $declared
     * @throws ValueError naming the table, for a bad size or column (of the wrong type too)
     * @throws Exception if shared memory cannot be mapped
     */
    public static function create(array $declared): void
    {
        $tables = [];
        foreach ($declared as $name => $table) {
            try {
                $tables[$name] = new Table($table['size'], $table['columns']);
            } catch (ValueError | TypeError $e) {
                // "Rapier\Table::__construct(): Argument #2 ($columns) must ..." names no table.
                throw new ValueError("table '$name': " . preg_replace('/^.*?\): Argument #\d \(\$(\w+)\) /', '$1 ', $e->getMessage()));
            }
        }
        self::$tables = $tables;
    }

    /** @throws Exception if the config declares no table of that name */
    public static function get(string $name): Table
    {
        return self::$tables[$name] ?? throw new Exception(self::$tables === []
            ? "No table '$name': no table is declared (declare it under 'tables' in the config file, rapier serve --config F)"
            : "No table '$name' among the declared tables (" . implode(', ', array_keys(self::$tables)) . "): "
                . "declare it under 'tables' in the config file");
    }

    /** @return array<string, Table> every declared table, by name */
    public static function all(): array
    {
        return self::$tables;
    }
}
