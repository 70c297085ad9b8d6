/* Unit tests for the intrusive FIFO (list.h) behind every wait queue. */
#include "unit.h"

#include "list.h"

typedef struct {
	int id;
	rapier_list_node_t link;
} item_t;

/* The ids in LIST, head to tail, checked against the links both ways. */
static int collect(rapier_list_t *list, int *ids, int max)
{
	int n = 0;
	rapier_list_node_t *prev = NULL;

	for (rapier_list_node_t *node = list->head; node && n < max; node = node->next) {
		CHECK(node->prev == prev);
		ids[n++] = RAPIER_LIST_ENTRY(node, item_t, link)->id;
		prev = node;
	}
	CHECK(list->tail == prev);
	return n;
}

static void test_fifo_order(void)
{
	rapier_list_t list = { 0 };
	item_t items[4] = { { .id = 0 }, { .id = 1 }, { .id = 2 }, { .id = 3 } };
	int ids[4];

	CHECK(rapier_list_is_empty(&list));
	CHECK(rapier_list_shift(&list) == NULL);
	for (int i = 0; i < 4; i++) {
		rapier_list_push(&list, &items[i].link);
	}
	CHECK(!rapier_list_is_empty(&list));
	CHECK_EQ_INT(collect(&list, ids, 4), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_INT(ids[i], i);
		CHECK(rapier_list_contains(&list, &items[i].link));
	}
	for (int i = 0; i < 4; i++) {
		rapier_list_node_t *node = rapier_list_shift(&list);
		CHECK(node == &items[i].link);
		CHECK(!rapier_list_contains(&list, node));
		CHECK(node->prev == NULL && node->next == NULL);
	}
	CHECK(rapier_list_is_empty(&list));
	CHECK(list.tail == NULL);
}

static void test_remove_anywhere(void)
{
	rapier_list_t list = { 0 };
	item_t items[5];
	int ids[5];

	for (int i = 0; i < 5; i++) {
		items[i] = (item_t) { .id = i };
		rapier_list_push(&list, &items[i].link);
	}
	rapier_list_remove(&list, &items[2].link);   /* middle */
	rapier_list_remove(&list, &items[0].link);   /* head */
	rapier_list_remove(&list, &items[4].link);   /* tail */
	CHECK_EQ_INT(collect(&list, ids, 5), 2);
	CHECK_EQ_INT(ids[0], 1);
	CHECK_EQ_INT(ids[1], 3);

	/* Removing a node twice, or one never pushed, changes nothing. */
	item_t stranger = { .id = 9 };
	rapier_list_remove(&list, &items[2].link);
	rapier_list_remove(&list, &stranger.link);
	CHECK_EQ_INT(collect(&list, ids, 5), 2);

	/* A removed node can be pushed again, at the tail. */
	rapier_list_push(&list, &items[0].link);
	CHECK_EQ_INT(collect(&list, ids, 5), 3);
	CHECK_EQ_INT(ids[2], 0);

	rapier_list_remove(&list, &items[1].link);
	rapier_list_remove(&list, &items[3].link);
	rapier_list_remove(&list, &items[0].link);
	CHECK(rapier_list_is_empty(&list));
	CHECK(list.tail == NULL);
}

/* The sole element is both head and tail: removing it must empty both. */
static void test_single_element(void)
{
	rapier_list_t list = { 0 };
	item_t only = { .id = 7 };

	rapier_list_push(&list, &only.link);
	CHECK(list.head == &only.link && list.tail == &only.link);
	CHECK(rapier_list_contains(&list, &only.link));
	rapier_list_remove(&list, &only.link);
	CHECK(list.head == NULL && list.tail == NULL);
	CHECK(!rapier_list_contains(&list, &only.link));
}

/* Inserting before the head, in the middle, and at the end (NULL), into an empty list too. */
static void test_insert_before(void)
{
	rapier_list_t list = { 0 };
	item_t items[4];
	int ids[4];

	for (int i = 0; i < 4; i++) {
		items[i] = (item_t) { .id = i };
	}
	rapier_list_insert_before(&list, NULL, &items[2].link);          /* empty: 2 */
	rapier_list_insert_before(&list, &items[2].link, &items[0].link);   /* head: 0 2 */
	rapier_list_insert_before(&list, &items[2].link, &items[1].link);   /* middle: 0 1 2 */
	rapier_list_insert_before(&list, NULL, &items[3].link);          /* end: 0 1 2 3 */
	CHECK_EQ_INT(collect(&list, ids, 4), 4);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ_INT(ids[i], i);
	}
	/* A removed node goes back to its place. */
	rapier_list_remove(&list, &items[1].link);
	rapier_list_insert_before(&list, &items[2].link, &items[1].link);
	CHECK_EQ_INT(collect(&list, ids, 4), 4);
	CHECK_EQ_INT(ids[1], 1);
}

int main(void)
{
	test_fifo_order();
	test_remove_anywhere();
	test_single_element();
	test_insert_before();
	return unit_finish("list_test");
}
