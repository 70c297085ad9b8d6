/*
 * Rapier's intrusive FIFO: a doubly linked list whose links live inside
 * the queued objects (a waiting coroutine's stack frame, a connection, a
 * DNS lookup), so queueing never allocates and any element leaves in O(1),
 * as a timeout or a client that goes away needs.
 *
 * A zeroed rapier_list_t is an empty list and a zeroed node is unlinked, so
 * the structs that embed them need no init call. A node knows neither its
 * list nor its container: the caller passes the list, and gets the
 * container back with RAPIER_LIST_ENTRY.
 */
#ifndef RAPIER_LIST_H
#define RAPIER_LIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rapier_list_node_s rapier_list_node_t;

struct rapier_list_node_s {
	rapier_list_node_t *prev;
	rapier_list_node_t *next;
};

typedef struct {
	rapier_list_node_t *head;   /* oldest */
	rapier_list_node_t *tail;   /* newest */
} rapier_list_t;

/* The struct of TYPE whose MEMBER is NODE. */
#define RAPIER_LIST_ENTRY(node, type, member) \
	((type *) ((char *) (node) - offsetof(type, member)))

static inline bool rapier_list_is_empty(const rapier_list_t *list)
{
	return list->head == NULL;
}

/* Whether NODE is in LIST (a node is in at most one list at a time). */
static inline bool rapier_list_contains(const rapier_list_t *list, const rapier_list_node_t *node)
{
	return node->prev != NULL || list->head == node;
}

/* Links NODE into LIST just before BEFORE, a node of LIST; at the end when BEFORE is NULL. */
static inline void rapier_list_insert_before(rapier_list_t *list, rapier_list_node_t *before, rapier_list_node_t *node)
{
	node->next = before;
	node->prev = before ? before->prev : list->tail;
	if (node->prev) {
		node->prev->next = node;
	} else {
		list->head = node;
	}
	if (before) {
		before->prev = node;
	} else {
		list->tail = node;
	}
}

static inline void rapier_list_push(rapier_list_t *list, rapier_list_node_t *node)
{
	rapier_list_insert_before(list, NULL, node);
}

/* Unlinks NODE from LIST; a node not in LIST is left alone. */
static inline void rapier_list_remove(rapier_list_t *list, rapier_list_node_t *node)
{
	if (!rapier_list_contains(list, node)) {
		return;
	}
	if (node->prev) {
		node->prev->next = node->next;
	} else {
		list->head = node->next;
	}
	if (node->next) {
		node->next->prev = node->prev;
	} else {
		list->tail = node->prev;
	}
	node->prev = node->next = NULL;
}

/* Unlinks and returns the oldest node, or NULL when LIST is empty. */
static inline rapier_list_node_t *rapier_list_shift(rapier_list_t *list)
{
	rapier_list_node_t *node = list->head;

	if (node) {
		rapier_list_remove(list, node);
	}
	return node;
}

#endif
