<?php

/** @generate-class-entries */

namespace Rapier {
    /**
     * A hash table of typed rows in shared memory: every process forked
     * after it is made (the server's workers, task workers and processes
     * added with addProcess()) reads and writes the same rows. Make it
     * before Rapier\Http\Server::start(); one made in a worker is that
     * worker's alone.
     *
     * Its size is fixed: a new key when every row is taken throws
     * Rapier\TableFullException. Keys are 1 to 64 bytes. Each call is one
     * step under a lock, whatever other processes do at once: incr() never
     * loses an addition, get() never sees half a set().
     *
     * @strict-properties
     * @not-serializable
     */
    final class Table implements \IteratorAggregate, \Countable
    {
        /**
         * The longest key, in bytes.
         * @var int
         */
        public const KEY_MAX = 64;

        /**
         * A table of $size rows (1 to 1,073,741,824) with 1 to 64 columns,
         * given as name => type: "int" (64-bit), "float", or "string:N"
         * (at most N bytes, N up to 1 MiB).
         *
         * @throws \ValueError for a bad size or column, naming it
         * @throws \Rapier\Exception if the memory cannot be mapped
         */
        public function __construct(int $size, array $columns) {}

        /**
         * Writes the columns $row names into the row of $key, making the
         * row if needed; its other columns keep their values (0, 0.0 and ""
         * in a new row). An int column takes an int, a float column an int
         * or a float, a string column a string.
         *
         * @throws \ValueError for a bad key, an unknown column or a string longer than its column
         * @throws \TypeError for a value of the wrong type
         * @throws \Rapier\TableFullException if the row is new and every row is taken
         */
        public function set(string $key, array $row): void {}

        /**
         * The row of $key (column => value, in the columns' order), or one
         * column's value; null if there is no such row.
         *
         * @throws \ValueError for a bad key or an unknown column
         */
        public function get(string $key, ?string $column = null): array|int|float|string|null {}

        /**
         * set() of a new row only, as one step: false, and nothing
         * written, if $key has a row. Of processes adding one key at once,
         * exactly one gets true.
         *
         * @throws \ValueError for a bad key, an unknown column or a string longer than its column
         * @throws \TypeError for a value of the wrong type
         * @throws \Rapier\TableFullException if every row is taken
         */
        public function add(string $key, array $row): bool {}

        /**
         * set() of an existing row whose columns hold the values $expected
         * names (column => value; [] takes any row), as one step: false,
         * and nothing written, otherwise. A read with get() then a
         * replace() expecting what was read is a compare-and-swap.
         *
         * @throws \ValueError for a bad key, an unknown column or a string longer than its column
         * @throws \TypeError for a value of the wrong type
         */
        public function replace(string $key, array $row, array $expected = []): bool {}

        /** @throws \ValueError for a bad key */
        public function exists(string $key): bool {}

        /**
         * Removes the row of $key if its columns hold the values $expected
         * names ([] takes any row), as one step; false, and nothing
         * removed, if there is no such row or it holds other values.
         *
         * @throws \ValueError for a bad key, an unknown column or a string longer than its column
         * @throws \TypeError for a value of the wrong type
         */
        public function delete(string $key, array $expected = []): bool {}

        /**
         * Adds $by to a number column of the row of $key (made if needed)
         * and returns the new value, as one step. An int column takes an
         * int $by.
         *
         * @throws \ValueError for a bad key, an unknown column or a string column
         * @throws \TypeError for a float $by on an int column
         * @throws \ArithmeticError if an int column would overflow (it is left as it was)
         * @throws \Rapier\TableFullException if the row is new and every row is taken
         */
        public function incr(string $key, string $column, int|float $by = 1): int|float {}

        /** incr() with -$by. */
        public function decr(string $key, string $column, int|float $by = 1): int|float {}

        /** Rows in use. */
        public function count(): int {}

        /** Rows it can hold: the size it was made with. */
        public function size(): int {}

        /** Bytes of shared memory it reserves; pages become resident as rows fill. */
        public function memorySize(): int {}

        /** @return array<string,string> name => type, as given to the constructor */
        public function columns(): array {}

        /**
         * Every row, key => row. Each row is read whole; rows set or
         * deleted meanwhile may or may not be seen.
         */
        public function getIterator(): \Iterator {}
    }
}
