/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tree.c: pgn-tree's counts (tree.h): a hash table of (position, move)
 * statistics with open addressing, merged across threads.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "chessdata.h"
#include "cli.h"
#include "tree.h"

static inline size_t
slot_hash(uint64_t key, cd_move m, size_t mask)
{
	uint64_t h = (key ^ (uint64_t)m * 0x9E3779B97F4A7C15ULL) *
	    0xBF58476D1CE4E5B9ULL;

	return (size_t)(h >> 24) & mask;
}

static void
table_rehash(struct table *t)
{
	size_t mask = t->mask ? t->mask * 2 + 1 : 255, i, h;
	uint32_t *s = calloc(mask + 1, sizeof(*s));

	if (s == NULL)
		cli_fatal("out of memory");
	for (i = 0; i < t->n; i++) {
		for (h = slot_hash(t->s[i].key, t->s[i].move, mask); s[h];
		    h = (h + 1) & mask)
			;
		s[h] = (uint32_t)(i + 1);
	}
	free(t->slot);
	t->slot = s;
	t->mask = mask;
}

/* The statistics of (key, m): found, or added empty when add. */
struct mstat *
tree_table_get(struct table *t, uint64_t key, cd_move m, bool add)
{
	size_t h;
	struct mstat *s;

	if (t->slot != NULL)
		for (h = slot_hash(key, m, t->mask); t->slot[h];
		    h = (h + 1) & t->mask) {
			s = &t->s[t->slot[h] - 1];
			if (s->key == key && s->move == m)
				return s;
		}
	if (!add)
		return NULL;
	if (t->slot == NULL || 2 * (t->n + 1) > t->mask + 1)
		table_rehash(t);
	cli_grow(&t->s, &t->cap, t->n, sizeof(*t->s), 64);
	s = &t->s[t->n];
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->move = m;
	for (h = slot_hash(key, m, t->mask); t->slot[h]; h = (h + 1) & t->mask)
		;
	t->slot[h] = (uint32_t)++t->n;
	return s;
}

void
tree_table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->s[i].white_name);
		free(t->s[i].black_name);
		free(t->s[i].event);
	}
	free(t->s);
	free(t->slot);
	free(t->seen);
	memset(t, 0, sizeof(*t));
}

char *
tree_xstrdup(const char *s)
{
	char *d = strdup(s != NULL ? s : "");

	if (d == NULL)
		cli_fatal("out of memory");
	return d;
}

/* Whether the game (date d, index i) is more recent than s's latest:
 * dates compared with `?` below every digit, then the input order. */
bool
tree_more_recent(const struct mstat *s, const char *d, uint64_t i)
{
	int k;

	if (s->index == 0)
		return true;
	for (k = 0; k < 10; k++) {
		char a = d[k] == '?' ? '0' - 1 : d[k];
		char b = s->date[k] == '?' ? '0' - 1 : s->date[k];

		if (a != b)
			return a > b;
	}
	return i > s->index;
}

void
tree_set_latest(struct mstat *s, const char *date, uint64_t index,
    const char *w, const char *b, const char *e)
{
	memcpy(s->date, date, 10);
	s->date[10] = '\0';
	s->index = index;
	free(s->white_name);
	free(s->black_name);
	free(s->event);
	s->white_name = tree_xstrdup(w);
	s->black_name = tree_xstrdup(b);
	s->event = tree_xstrdup(e);
}

/* Add s's counts into t (the threads' tables into the total). */
void
tree_table_merge(struct table *t, const struct mstat *s)
{
	struct mstat *d = tree_table_get(t, s->key, s->move, true);

	d->games += s->games;
	d->white += s->white;
	d->draws += s->draws;
	d->black += s->black;
	d->elo_sum += s->elo_sum;
	d->elo_n += s->elo_n;
	d->opp_sum += s->opp_sum;
	d->opp_n += s->opp_n;
	d->perf_diff += s->perf_diff;
	d->perf_n += s->perf_n;
	d->perf_opp += s->perf_opp;
	if (s->first_year != 0 && (d->first_year == 0 ||
	    s->first_year < d->first_year))
		d->first_year = s->first_year;
	if (s->last_year > d->last_year)
		d->last_year = s->last_year;
	if (s->index != 0 && tree_more_recent(d, s->date, s->index))
		tree_set_latest(d, s->date, s->index, s->white_name, s->black_name,
		    s->event);
}
