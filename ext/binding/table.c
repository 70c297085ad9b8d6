/*
 * Rapier\Table: the PHP face of src/table.c.
 *
 * The object keeps, in this process's memory, what the constructor was
 * given (column names, types, the layout) and a scratch image for one row;
 * the rows themselves are in the shared mapping. A forked child inherits
 * the object with the rest of the heap, so it keeps working there. Every
 * value is checked before the shared row is touched: a call that throws
 * changed nothing.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_smart_str.h"

#include "php_rapier.h"
#include "src/table.h"
#include "table_arginfo.h"

typedef struct {
	rapier_table_t table;             /* table.shm is NULL until constructed */
	rapier_table_column_t *columns;
	zend_string **names;              /* column names, in order */
	HashTable by_name;                /* name => column index */
	char *image;                      /* one row's values, for each call */
	char *expected;                   /* the values a conditional write expects */
	zend_object std;
} table_object;

typedef struct {
	zend_object_iterator it;
	uint32_t cursor;
	zval key;
	zval row;                         /* IS_UNDEF past the last row */
	char *image;
} table_iterator;

static zend_class_entry *rapier_ce_table;
static zend_object_handlers table_handlers;

static inline table_object *table_from(zend_object *obj)
{
	return (table_object *) ((char *) obj - XtOffsetOf(table_object, std));
}

static zend_object *table_create(zend_class_entry *ce)
{
	table_object *t = zend_object_alloc(sizeof(table_object), ce);

	zend_hash_init(&t->by_name, 8, NULL, NULL, 0);
	zend_object_std_init(&t->std, ce);
	object_properties_init(&t->std, ce);
	t->std.handlers = &table_handlers;
	return &t->std;
}

static void table_free_columns(table_object *t, uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		zend_string_release(t->names[i]);
	}
	efree(t->names);
	efree(t->columns);
	t->names = NULL;
	t->columns = NULL;
}

static void table_free(zend_object *obj)
{
	table_object *t = table_from(obj);

	if (t->table.shm != NULL) {
		uint32_t count = t->table.column_count;

		rapier_table_destroy(&t->table);
		table_free_columns(t, count);
		efree(t->image);
		efree(t->expected);
	}
	zend_hash_destroy(&t->by_name);
	zend_object_std_dtor(obj);
}

/* The constructed table of $this, or NULL with an Error thrown. */
static table_object *this_table(zval *this_ptr)
{
	table_object *t = table_from(Z_OBJ_P(this_ptr));

	if (t->table.shm == NULL) {
		zend_throw_error(NULL, "Rapier\\Table was not constructed");
		return NULL;
	}
	return t;
}

/* "int", "float" or "string:N" into *column; false with a ValueError naming the column. */
static bool parse_type(zend_string *name, zend_string *type, rapier_table_column_t *column)
{
	const char *s = ZSTR_VAL(type);
	char *end;
	unsigned long size;

	column->size = 0;
	if (zend_string_equals_literal(type, "int")) {
		column->type = RAPIER_TABLE_INT;
		return true;
	}
	if (zend_string_equals_literal(type, "float")) {
		column->type = RAPIER_TABLE_FLOAT;
		return true;
	}
	if (ZSTR_LEN(type) > 7 && strncmp(s, "string:", 7) == 0 && s[7] >= '1' && s[7] <= '9') {
		errno = 0;
		size = strtoul(s + 7, &end, 10);
		if (errno == 0 && *end == '\0' && size <= RAPIER_TABLE_STRING_MAX) {
			column->type = RAPIER_TABLE_STRING;
			column->size = (uint32_t) size;
			return true;
		}
	}
	zend_argument_value_error(2, "must give column \"%s\" the type \"int\", \"float\" or \"string:N\" "
		"(N the most bytes a value holds, 1 to %u), \"%s\" given", ZSTR_VAL(name), RAPIER_TABLE_STRING_MAX, s);
	return false;
}

/* Reads the constructor's $columns; false with an exception thrown. */
static bool table_columns(table_object *t, HashTable *spec)
{
	uint32_t count = zend_hash_num_elements(spec), i = 0;
	zend_string *name;
	zend_ulong index;
	zval *type;

	if (count == 0 || count > RAPIER_TABLE_COLUMNS_MAX) {
		zend_argument_value_error(2, "must have 1 to %d columns, %u given", RAPIER_TABLE_COLUMNS_MAX, count);
		return false;
	}
	t->columns = ecalloc(count, sizeof(*t->columns));
	t->names = ecalloc(count, sizeof(*t->names));
	ZEND_HASH_FOREACH_KEY_VAL(spec, index, name, type) {
		ZVAL_DEREF(type);
		if (name == NULL) {
			zend_argument_value_error(2, "must map column names to types; key " ZEND_ULONG_FMT " is not a name", index);
			break;
		}
		if (ZSTR_LEN(name) == 0) {
			zend_argument_value_error(2, "must not have a column with an empty name");
			break;
		}
		if (Z_TYPE_P(type) != IS_STRING) {
			zend_argument_type_error(2, "must give column \"%s\" its type as a string (\"int\", \"float\" or \"string:N\"), %s given",
				ZSTR_VAL(name), zend_zval_type_name(type));
			break;
		}
		if (!parse_type(name, Z_STR_P(type), &t->columns[i])) {
			break;
		}
		t->names[i] = zend_string_copy(name);
		i++;
	} ZEND_HASH_FOREACH_END();
	if (i < count) {
		table_free_columns(t, i);
		return false;
	}
	for (i = 0; i < count; i++) {
		zval zi;

		ZVAL_LONG(&zi, i);
		zend_hash_add_new(&t->by_name, t->names[i], &zi);
	}
	return true;
}

ZEND_METHOD(Rapier_Table, __construct)
{
	table_object *t = table_from(Z_OBJ_P(ZEND_THIS));
	zend_long size;
	HashTable *columns;
	int rc;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_LONG(size)
		Z_PARAM_ARRAY_HT(columns)
	ZEND_PARSE_PARAMETERS_END();

	if (t->table.shm != NULL) {
		zend_throw_error(NULL, "Rapier\\Table is already constructed");
		RETURN_THROWS();
	}
	if (size < 1 || size > RAPIER_TABLE_ROWS_MAX) {
		zend_argument_value_error(1, "must be between 1 and %u", RAPIER_TABLE_ROWS_MAX);
		RETURN_THROWS();
	}
	if (!table_columns(t, columns)) {
		RETURN_THROWS();
	}
	rc = rapier_table_create(&t->table, (uint32_t) size, t->columns, zend_hash_num_elements(&t->by_name));
	if (rc != 0) {
		zend_hash_clean(&t->by_name);
		table_free_columns(t, zend_hash_num_elements(columns));
		zend_throw_exception_ex(rapier_ce_exception, 0, "Cannot map shared memory for a table of " ZEND_LONG_FMT " rows: %s",
			size, strerror(-rc));
		RETURN_THROWS();
	}
	t->image = emalloc(t->table.values_size);
	t->expected = emalloc(t->table.values_size);
}

static bool check_key(zend_string *key)
{
	if (ZSTR_LEN(key) == 0 || ZSTR_LEN(key) > RAPIER_TABLE_KEY_MAX) {
		zend_argument_value_error(1, "must be 1 to %d bytes long, %zu given", RAPIER_TABLE_KEY_MAX, ZSTR_LEN(key));
		return false;
	}
	return true;
}

/* The index of column `name` (argument arg), or -1 with a ValueError listing the columns. */
static zend_long column_index(table_object *t, zend_string *name, uint32_t arg)
{
	zval *index = zend_hash_find(&t->by_name, name);
	smart_str names = {0};
	uint32_t col;

	if (index != NULL) {
		return Z_LVAL_P(index);
	}
	for (col = 0; col < t->table.column_count; col++) {
		smart_str_appends(&names, col ? ", \"" : "\"");
		smart_str_append(&names, t->names[col]);
		smart_str_appendc(&names, '"');
	}
	smart_str_0(&names);
	zend_argument_value_error(arg, "must name a column of the table (%s), \"%s\" given",
		ZSTR_VAL(names.s), ZSTR_VAL(name));
	smart_str_free(&names);
	return -1;
}

static void column_value(table_object *t, const char *image, uint32_t col, zval *out)
{
	rapier_table_number_t n;
	const char *s;
	uint32_t len;

	switch (t->columns[col].type) {
	case RAPIER_TABLE_INT:
		n = rapier_table_image_number(&t->table, image, col);
		ZVAL_LONG(out, n.i);
		break;
	case RAPIER_TABLE_FLOAT:
		n = rapier_table_image_number(&t->table, image, col);
		ZVAL_DOUBLE(out, n.d);
		break;
	default:
		s = rapier_table_image_string(&t->table, image, col, &len);
		ZVAL_STRINGL_FAST(out, s, len);
		break;
	}
}

static void row_array(table_object *t, const char *image, zval *out)
{
	uint32_t col;

	array_init_size(out, t->table.column_count);
	for (col = 0; col < t->table.column_count; col++) {
		zval value;

		column_value(t, image, col, &value);
		zend_hash_add_new(Z_ARRVAL_P(out), t->names[col], &value);
	}
}

/* Puts one value of argument arg (a row) into image; false with an exception. */
static bool put_value(table_object *t, uint32_t arg, char *image, uint32_t col, zval *value)
{
	rapier_table_column_t *c = &t->columns[col];
	rapier_table_number_t n;

	ZVAL_DEREF(value);
	if (c->type == RAPIER_TABLE_INT && Z_TYPE_P(value) == IS_LONG) {
		n.i = Z_LVAL_P(value);
	} else if (c->type == RAPIER_TABLE_FLOAT && (Z_TYPE_P(value) == IS_DOUBLE || Z_TYPE_P(value) == IS_LONG)) {
		n.d = zval_get_double(value);
	} else if (c->type == RAPIER_TABLE_STRING && Z_TYPE_P(value) == IS_STRING) {
		if (Z_STRLEN_P(value) > c->size) {
			zend_argument_value_error(arg, "must hold at most %u bytes in column \"%s\", %zu given",
				c->size, ZSTR_VAL(t->names[col]), Z_STRLEN_P(value));
			return false;
		}
		rapier_table_image_put_string(&t->table, image, col, Z_STRVAL_P(value), (uint32_t) Z_STRLEN_P(value));
		return true;
	} else {
		zend_argument_type_error(arg, "must hold %s in column \"%s\", %s given",
			c->type == RAPIER_TABLE_INT ? "an int" : c->type == RAPIER_TABLE_FLOAT ? "an int or a float" : "a string",
			ZSTR_VAL(t->names[col]), zend_zval_type_name(value));
		return false;
	}
	rapier_table_image_put_number(&t->table, image, col, n);
	return true;
}

/* Argument arg, column => value, into image and the mask of its columns; false with an exception. */
static bool row_image(table_object *t, uint32_t arg, HashTable *row, char *image, uint64_t *mask)
{
	zend_string *name;
	zval *value;

	*mask = 0;
	ZEND_HASH_FOREACH_STR_KEY_VAL(row, name, value) {
		zend_long col;

		if (name == NULL) {
			zend_argument_value_error(arg, "must map column names to values");
			return false;
		}
		if ((col = column_index(t, name, arg)) < 0 || !put_value(t, arg, image, (uint32_t) col, value)) {
			return false;
		}
		*mask |= (uint64_t) 1 << col;
	} ZEND_HASH_FOREACH_END();
	return true;
}

static void throw_full(table_object *t, zend_string *key)
{
	zend_throw_exception_ex(rapier_ce_table_full_exception, 0,
		"Cannot add the row \"%s\": all %u rows of the table are taken (delete rows, or make the table larger)",
		ZSTR_VAL(key), rapier_table_rows(&t->table));
}

ZEND_METHOD(Rapier_Table, set)
{
	table_object *t;
	zend_string *key;
	HashTable *row;
	uint64_t mask;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(key)
		Z_PARAM_ARRAY_HT(row)
	ZEND_PARSE_PARAMETERS_END();

	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key) || !row_image(t, 2, row, t->image, &mask)) {
		RETURN_THROWS();
	}
	if (rapier_table_set(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), t->image, mask) == RAPIER_TABLE_FULL) {
		throw_full(t, key);
		RETURN_THROWS();
	}
}

ZEND_METHOD(Rapier_Table, add)
{
	table_object *t;
	zend_string *key;
	HashTable *row;
	uint64_t mask;
	rapier_table_status_t status;

	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_STR(key)
		Z_PARAM_ARRAY_HT(row)
	ZEND_PARSE_PARAMETERS_END();

	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key) || !row_image(t, 2, row, t->image, &mask)) {
		RETURN_THROWS();
	}
	status = rapier_table_add(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), t->image, mask);
	if (status == RAPIER_TABLE_FULL) {
		throw_full(t, key);
		RETURN_THROWS();
	}
	RETURN_BOOL(status == RAPIER_TABLE_OK);
}

ZEND_METHOD(Rapier_Table, replace)
{
	table_object *t;
	zend_string *key;
	HashTable *row, *expected = NULL;
	uint64_t mask, expected_mask = 0;

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_ARRAY_HT(row)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(expected)
	ZEND_PARSE_PARAMETERS_END();

	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key) || !row_image(t, 2, row, t->image, &mask)
			|| (expected != NULL && !row_image(t, 3, expected, t->expected, &expected_mask))) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rapier_table_replace(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), t->image, mask,
		t->expected, expected_mask) == RAPIER_TABLE_OK);
}

ZEND_METHOD(Rapier_Table, get)
{
	table_object *t;
	zend_string *key, *column = NULL;
	zend_long col = -1;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(column)
	ZEND_PARSE_PARAMETERS_END();

	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key)) {
		RETURN_THROWS();
	}
	if (column != NULL && (col = column_index(t, column, 2)) < 0) {
		RETURN_THROWS();
	}
	if (rapier_table_get(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), t->image) != RAPIER_TABLE_OK) {
		RETURN_NULL();
	}
	if (col >= 0) {
		column_value(t, t->image, (uint32_t) col, return_value);
		return;
	}
	row_array(t, t->image, return_value);
}

ZEND_METHOD(Rapier_Table, exists)
{
	table_object *t;
	zend_string *key;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(key)
	ZEND_PARSE_PARAMETERS_END();

	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key)) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rapier_table_get(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), NULL) == RAPIER_TABLE_OK);
}

ZEND_METHOD(Rapier_Table, delete)
{
	table_object *t;
	zend_string *key;
	HashTable *expected = NULL;
	uint64_t expected_mask = 0;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(expected)
	ZEND_PARSE_PARAMETERS_END();

	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key)
			|| (expected != NULL && !row_image(t, 2, expected, t->expected, &expected_mask))) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rapier_table_delete(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), t->expected, expected_mask) == RAPIER_TABLE_OK);
}

/* incr() and decr(): $by added, or subtracted. */
static void table_add(INTERNAL_FUNCTION_PARAMETERS, bool subtract)
{
	table_object *t;
	zend_string *key, *column;
	zval *by = NULL, one;
	rapier_table_number_t n, result;
	rapier_table_status_t status;
	zend_long col;

	ZVAL_LONG(&one, 1);
	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_STR(column)
		Z_PARAM_OPTIONAL
		Z_PARAM_NUMBER(by)
	ZEND_PARSE_PARAMETERS_END();

	if (by == NULL) {
		by = &one;
	}
	if ((t = this_table(ZEND_THIS)) == NULL || !check_key(key) || (col = column_index(t, column, 2)) < 0) {
		RETURN_THROWS();
	}
	switch (t->columns[col].type) {
	case RAPIER_TABLE_INT:
		if (Z_TYPE_P(by) != IS_LONG) {
			zend_argument_type_error(3, "must be of type int for int column \"%s\", float given", ZSTR_VAL(column));
			RETURN_THROWS();
		}
		if (subtract && Z_LVAL_P(by) == ZEND_LONG_MIN) {
			zend_throw_exception_ex(zend_ce_arithmetic_error, 0, "Cannot subtract PHP_INT_MIN: its negation is not an int");
			RETURN_THROWS();
		}
		n.i = subtract ? -Z_LVAL_P(by) : Z_LVAL_P(by);
		break;
	case RAPIER_TABLE_FLOAT:
		n.d = subtract ? -zval_get_double(by) : zval_get_double(by);
		break;
	default:
		zend_argument_value_error(2, "must name an int or float column, \"%s\" is a string column", ZSTR_VAL(column));
		RETURN_THROWS();
	}
	status = rapier_table_incr(&t->table, ZSTR_VAL(key), ZSTR_LEN(key), (uint32_t) col, n, &result);
	if (status == RAPIER_TABLE_FULL) {
		throw_full(t, key);
		RETURN_THROWS();
	}
	if (status == RAPIER_TABLE_OVERFLOW) {
		zend_throw_exception_ex(zend_ce_arithmetic_error, 0, "Cannot %s " ZEND_LONG_FMT " %s column \"%s\" of row \"%s\": "
			"the int would overflow; the row is unchanged", subtract ? "subtract" : "add", Z_LVAL_P(by),
			subtract ? "from" : "to", ZSTR_VAL(column), ZSTR_VAL(key));
		RETURN_THROWS();
	}
	if (t->columns[col].type == RAPIER_TABLE_INT) {
		RETURN_LONG(result.i);
	}
	RETURN_DOUBLE(result.d);
}

ZEND_METHOD(Rapier_Table, incr)
{
	table_add(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_METHOD(Rapier_Table, decr)
{
	table_add(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_METHOD(Rapier_Table, count)
{
	table_object *t;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((t = this_table(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	RETURN_LONG(rapier_table_count(&t->table));
}

ZEND_METHOD(Rapier_Table, size)
{
	table_object *t;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((t = this_table(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	RETURN_LONG(rapier_table_rows(&t->table));
}

ZEND_METHOD(Rapier_Table, memorySize)
{
	table_object *t;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((t = this_table(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long) rapier_table_memory_size(&t->table));
}

ZEND_METHOD(Rapier_Table, columns)
{
	table_object *t;
	uint32_t col;

	ZEND_PARSE_PARAMETERS_NONE();

	if ((t = this_table(ZEND_THIS)) == NULL) {
		RETURN_THROWS();
	}
	array_init_size(return_value, t->table.column_count);
	for (col = 0; col < t->table.column_count; col++) {
		rapier_table_column_t *c = &t->columns[col];
		zval type;

		/* parse_type() takes only these spellings: they are what was given. */
		if (c->type == RAPIER_TABLE_STRING) {
			ZVAL_STR(&type, zend_strpprintf(0, "string:%u", c->size));
		} else {
			ZVAL_STRING(&type, c->type == RAPIER_TABLE_INT ? "int" : "float");
		}
		zend_hash_add_new(Z_ARRVAL_P(return_value), t->names[col], &type);
	}
}

ZEND_METHOD(Rapier_Table, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();

	if (this_table(ZEND_THIS) == NULL) {
		RETURN_THROWS();
	}
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

/* The iterator: one row copied at a time, from the slot after the last. */

static table_object *iterator_table(table_iterator *iter)
{
	return table_from(Z_OBJ(iter->it.data));
}

static void iterator_clear(table_iterator *iter)
{
	zval_ptr_dtor(&iter->key);
	zval_ptr_dtor(&iter->row);
	ZVAL_UNDEF(&iter->key);
	ZVAL_UNDEF(&iter->row);
}

static void iterator_fetch(table_iterator *iter)
{
	table_object *t = iterator_table(iter);
	char key[RAPIER_TABLE_KEY_MAX];
	size_t key_len;

	iterator_clear(iter);
	if (rapier_table_next(&t->table, &iter->cursor, key, &key_len, iter->image)) {
		ZVAL_STRINGL_FAST(&iter->key, key, key_len);
		row_array(t, iter->image, &iter->row);
	}
}

static void iterator_dtor(zend_object_iterator *it)
{
	table_iterator *iter = (table_iterator *) it;

	iterator_clear(iter);
	efree(iter->image);
	zval_ptr_dtor(&it->data);
}

static zend_result iterator_valid(zend_object_iterator *it)
{
	return Z_TYPE(((table_iterator *) it)->row) != IS_UNDEF ? SUCCESS : FAILURE;
}

static zval *iterator_current(zend_object_iterator *it)
{
	return &((table_iterator *) it)->row;
}

static void iterator_key(zend_object_iterator *it, zval *key)
{
	ZVAL_COPY(key, &((table_iterator *) it)->key);
}

static void iterator_forward(zend_object_iterator *it)
{
	iterator_fetch((table_iterator *) it);
}

static void iterator_rewind(zend_object_iterator *it)
{
	table_iterator *iter = (table_iterator *) it;

	iter->cursor = 0;
	iterator_fetch(iter);
}

static const zend_object_iterator_funcs table_iterator_funcs = {
	.dtor = iterator_dtor,
	.valid = iterator_valid,
	.get_current_data = iterator_current,
	.get_current_key = iterator_key,
	.move_forward = iterator_forward,
	.rewind = iterator_rewind,
	.invalidate_current = NULL,
	.get_gc = NULL,
};

static zend_object_iterator *table_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	table_object *t = table_from(Z_OBJ_P(object));
	table_iterator *iter;

	if (by_ref) {
		zend_throw_error(NULL, "Rows of a Rapier\\Table cannot be iterated by reference; write them back with set()");
		return NULL;
	}
	if (t->table.shm == NULL) {
		zend_throw_error(NULL, "Rapier\\Table was not constructed");
		return NULL;
	}
	iter = ecalloc(1, sizeof(*iter));
	zend_iterator_init(&iter->it);
	ZVAL_OBJ_COPY(&iter->it.data, Z_OBJ_P(object));
	iter->it.funcs = &table_iterator_funcs;
	iter->image = emalloc(t->table.values_size);
	ZVAL_UNDEF(&iter->key);
	ZVAL_UNDEF(&iter->row);
	return &iter->it;
}

void rapier_table_class_minit(void)
{
	rapier_ce_table = register_class_Rapier_Table(zend_ce_aggregate, zend_ce_countable);
	rapier_ce_table->create_object = table_create;
	rapier_ce_table->get_iterator = table_get_iterator;

	memcpy(&table_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	table_handlers.offset = XtOffsetOf(table_object, std);
	table_handlers.free_obj = table_free;
	table_handlers.clone_obj = NULL;
}
