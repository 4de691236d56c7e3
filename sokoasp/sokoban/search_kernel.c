/* The push search of push_search.push_search, compiled: the same states in the same order, the
 * same tie-breaks and limits, so the same outcome, moves and work as the Python, which stays the
 * reference and the fallback (sokoasp/sokoban/kernel.py marshals the arguments; tests compare
 * the two). Boards are arrays of 64-bit words, bit y * stride + x as in bitboard.py; the seen
 * and taken sets are open-addressing tables of fixed-width keys; the player's region is a
 * flood over square indices. The matching guide keeps each state's assignment and matches a
 * state one push from a kept one by one augmenting step (Hungarian algorithm), as
 * MatchingGuide does. Beside the search: the deadlock prune of traps.Deadlocked, kept per floor
 * (a capsule) with the answers the Python gave it; the feature search's routes of one box; and
 * the keys of the states along a path (LiveStates.learn). A prune that is not the deadlock one,
 * and the live set, stay Python objects, called back. Sound as the Python is: every answer is
 * the Python's for the same input. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WORDS 16          /* boards of at most 1024 squares (rows times stride); larger: the Python */
#define INF 1000000000LL      /* analysis.INFINITY */
#define KEPT_ASSIGNMENTS 100000 /* push_search.KEPT_ASSIGNMENTS */

typedef uint64_t word;

enum { FOUND = 0, EXHAUSTED = 1, STATE_LIMIT = 2, DEADLINE = 3, LIVE = 4 };

/* ---- bit helpers ---------------------------------------------------------------------- */

static inline int test_bit(const word *bits, int i) { return (int)((bits[i >> 6] >> (i & 63)) & 1u); }
static inline void set_bit(word *bits, int i) { bits[i >> 6] |= (word)1 << (i & 63); }

static uint64_t hash_words(const word *key, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n; i++) {
        h ^= key[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    return h ^ (h >> 31);
}

/* Makes room for item ``index`` in ``*items`` (``*room`` items of ``size`` bytes), doubling it. */
static int grow(void **items, int64_t *room, int64_t index, size_t size) {
    if (index < *room) return 0;
    int64_t wanted = *room ? *room : 1024;
    while (wanted <= index) wanted *= 2;
    void *grown = realloc(*items, size * wanted);
    if (!grown) return -1;
    *items = grown;
    *room = wanted;
    return 0;
}

/* ---- a set of fixed-width keys: open addressing over indices into a key arena ------------- */

typedef struct {
    int width;          /* words a key */
    word *keys;         /* arena: count * width words */
    int64_t count, room;
    int64_t *slots;     /* key index + 1; 0 empty */
    int64_t mask;       /* slots - 1 */
} KeySet;

static int keyset_init(KeySet *set, int width) {
    set->width = width;
    set->count = 0;
    set->room = 1024;
    set->keys = malloc(sizeof(word) * width * set->room);
    set->mask = 2047;
    set->slots = calloc(set->mask + 1, sizeof(int64_t));
    return set->keys && set->slots ? 0 : -1;
}

static void keyset_free(KeySet *set) {
    free(set->keys);
    free(set->slots);
    set->keys = NULL;
    set->slots = NULL;
}

static int keyset_grow(KeySet *set) {
    int64_t size = (set->mask + 1) * 2;
    int64_t *slots = calloc(size, sizeof(int64_t));
    if (!slots) return -1;
    for (int64_t k = 0; k < set->count; k++) {
        int64_t at = (int64_t)(hash_words(set->keys + k * set->width, set->width) & (uint64_t)(size - 1));
        while (slots[at]) at = (at + 1) & (size - 1);
        slots[at] = k + 1;
    }
    free(set->slots);
    set->slots = slots;
    set->mask = size - 1;
    return 0;
}

/* The index of ``key``, added when missing (``*added`` says which); -1 when memory runs out. */
static int64_t keyset_put(KeySet *set, const word *key, int *added) {
    int width = set->width;
    int64_t at = (int64_t)(hash_words(key, width) & (uint64_t)set->mask);
    while (set->slots[at]) {
        int64_t k = set->slots[at] - 1;
        if (memcmp(set->keys + k * width, key, sizeof(word) * width) == 0) {
            *added = 0;
            return k;
        }
        at = (at + 1) & set->mask;
    }
    if (set->count == set->room) {
        word *keys = realloc(set->keys, sizeof(word) * width * set->room * 2);
        if (!keys) return -1;
        set->keys = keys;
        set->room *= 2;
    }
    int64_t k = set->count++;
    memcpy(set->keys + k * width, key, sizeof(word) * width);
    set->slots[at] = k + 1;
    *added = 1;
    if (set->count * 2 > set->mask && keyset_grow(set) < 0) return -1;
    return k;
}

static int64_t keyset_find(const KeySet *set, const word *key) {
    int width = set->width;
    int64_t at = (int64_t)(hash_words(key, width) & (uint64_t)set->mask);
    while (set->slots[at]) {
        int64_t k = set->slots[at] - 1;
        if (memcmp(set->keys + k * width, key, sizeof(word) * width) == 0) return k;
        at = (at + 1) & set->mask;
    }
    return -1;
}

/* ---- the open list: a binary heap on (priority, settled, order) ------------------------- */

typedef struct {
    int64_t priority;
    int64_t order;
    int64_t node;       /* the state's index in the node set: (boxes, player square) */
    int64_t parent;     /* the node it was found from (-1: the start) */
    int32_t summed;
    int16_t source, moved; /* the box moved: its square before and after (-1: none) */
    uint8_t settled;
} Entry;

typedef struct {
    Entry *items;
    int64_t count, room;
} Heap;

static inline int entry_less(const Entry *a, const Entry *b) {
    if (a->priority != b->priority) return a->priority < b->priority;
    if (a->settled != b->settled) return a->settled < b->settled;
    return a->order < b->order;
}

static int heap_push(Heap *heap, Entry entry) {
    if (heap->count == heap->room) {
        int64_t room = heap->room ? heap->room * 2 : 1024;
        Entry *items = realloc(heap->items, sizeof(Entry) * room);
        if (!items) return -1;
        heap->items = items;
        heap->room = room;
    }
    int64_t at = heap->count++;
    while (at > 0) {
        int64_t up = (at - 1) / 2;
        if (!entry_less(&entry, &heap->items[up])) break;
        heap->items[at] = heap->items[up];
        at = up;
    }
    heap->items[at] = entry;
    return 0;
}

static Entry heap_pop(Heap *heap) {
    Entry top = heap->items[0];
    Entry last = heap->items[--heap->count];
    int64_t at = 0, n = heap->count;
    for (;;) {
        int64_t child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && entry_less(&heap->items[child + 1], &heap->items[child])) child++;
        if (!entry_less(&heap->items[child], &last)) break;
        heap->items[at] = heap->items[child];
        at = child;
    }
    if (n) heap->items[at] = last;
    return top;
}

/* ---- the matching guide ------------------------------------------------------------------ */

/* An assignment of n rows to n columns with its potentials, e-maxx's layout (1-based, index 0
 * the algorithm's own): analysis.Assignment. */
typedef struct {
    int n;
    int64_t *u, *v;
    int *match;
    int16_t *rows;      /* the square of each row (0-based) */
} Assignment;

typedef struct {
    int n;                  /* targets, and boxes */
    const int32_t *costs;   /* square * n + target: fewest moves of a lone box, INF if none */
    KeySet known;           /* boxes -> (index into totals) */
    int64_t *totals;
    int64_t totals_room;
    KeySet kept;            /* boxes -> index into assignments */
    Assignment *assignments;
    int64_t assignments_room;
    /* scratch */
    int64_t *minv;
    int *way;
    int *unused, *used;
} Guide;

static int64_t cost_of(const Guide *guide, int square, int target) {
    return guide->costs[(int64_t)square * guide->n + target];
}

/* analysis.Assignment.augment: one step of the Hungarian algorithm for ``row`` (1-based). */
static void augment(Guide *guide, Assignment *a, int row) {
    int n = guide->n, size = n + 1;
    int64_t *u = a->u, *v = a->v, *minv = guide->minv;
    int *match = a->match, *way = guide->way, *unused = guide->unused, *used = guide->used;
    int unused_count = n, used_count = 1;
    for (int c = 0; c < size; c++) {
        way[c] = 0;
        minv[c] = INT64_MAX;
    }
    for (int c = 1; c < size; c++) unused[c - 1] = c;
    used[0] = 0;
    match[0] = row;
    int column0 = 0;
    while (match[column0]) {
        int row0 = match[column0], column1 = 0;
        int64_t delta = INT64_MAX, offset = u[row0];
        int square = a->rows[row0 - 1];
        for (int k = 0; k < unused_count; k++) {
            int column = unused[k];
            int64_t current = cost_of(guide, square, column - 1) - offset - v[column];
            if (current < minv[column]) {
                minv[column] = current;
                way[column] = column0;
            }
            if (minv[column] < delta) {
                delta = minv[column];
                column1 = column;
            }
        }
        for (int k = 0; k < used_count; k++) {
            int column = used[k];
            u[match[column]] += delta;
            v[column] -= delta;
        }
        int removed = 0;
        for (int k = 0; k < unused_count; k++) {
            int column = unused[k];
            minv[column] -= delta;
            if (column == column1) removed = 1;
            else if (removed) unused[k - 1] = column;
        }
        unused_count--;
        used[used_count++] = column1;
        column0 = column1;
    }
    while (column0) {
        int column1 = way[column0];
        match[column0] = match[column1];
        column0 = column1;
    }
}

static int64_t assignment_total(const Guide *guide, const Assignment *a) {
    int64_t total = 0;
    for (int c = 1; c <= guide->n; c++) total += cost_of(guide, a->rows[a->match[c] - 1], c - 1);
    return total >= INF ? INF : total;
}

static int assignment_alloc(Assignment *a, int n) {
    a->n = n;
    a->u = calloc(n + 1, sizeof(int64_t));
    a->v = calloc(n + 1, sizeof(int64_t));
    a->match = calloc(n + 1, sizeof(int));
    a->rows = calloc(n, sizeof(int16_t));
    return a->u && a->v && a->match && a->rows ? 0 : -1;
}

static void assignment_free(Assignment *a) {
    free(a->u);
    free(a->v);
    free(a->match);
    free(a->rows);
}

static int guide_init(Guide *guide, int n, const int32_t *costs, int width) {
    memset(guide, 0, sizeof(*guide));
    guide->n = n;
    guide->costs = costs;
    guide->minv = malloc(sizeof(int64_t) * (n + 1));
    guide->way = malloc(sizeof(int) * (n + 1));
    guide->unused = malloc(sizeof(int) * (n + 1));
    guide->used = malloc(sizeof(int) * (n + 2));
    if (!guide->minv || !guide->way || !guide->unused || !guide->used) return -1;
    if (keyset_init(&guide->known, width) < 0 || keyset_init(&guide->kept, width) < 0) return -1;
    return 0;
}

static void guide_forget(Guide *guide) {
    for (int64_t k = 0; k < guide->kept.count; k++) assignment_free(&guide->assignments[k]);
    guide->kept.count = 0;
    memset(guide->kept.slots, 0, sizeof(int64_t) * (guide->kept.mask + 1));
}

static void guide_free(Guide *guide) {
    if (guide->assignments) guide_forget(guide);
    free(guide->assignments);
    free(guide->totals);
    keyset_free(&guide->known);
    keyset_free(&guide->kept);
    free(guide->minv);
    free(guide->way);
    free(guide->unused);
    free(guide->used);
}

/* MatchingGuide.cost: the cheapest matching of the boxes ``boxes`` (their squares ``squares``, in
 * sorted order) to the targets; ``before``: the boxes before the box on ``source`` moved to
 * ``moved`` (NULL: none). -1 when memory runs out. */
static int64_t guide_cost(Guide *guide, const word *boxes, const int16_t *squares, const word *before, int source,
                          int moved) {
    int added;
    int64_t k = keyset_find(&guide->known, boxes);
    if (k >= 0) return guide->totals[k];
    int n = guide->n;
    int64_t parent = before ? keyset_find(&guide->kept, before) : -1;
    Assignment a;
    if (assignment_alloc(&a, n) < 0) return -1;
    if (parent >= 0) {
        Assignment *p = &guide->assignments[parent];
        memcpy(a.u, p->u, sizeof(int64_t) * (n + 1));
        memcpy(a.v, p->v, sizeof(int64_t) * (n + 1));
        memcpy(a.match, p->match, sizeof(int) * (n + 1));
        memcpy(a.rows, p->rows, sizeof(int16_t) * n);
        int row = 0;
        while (a.rows[row] != source) row++;
        a.rows[row] = (int16_t)moved;
        row++;
        for (int c = 1; c <= n; c++)
            if (a.match[c] == row) {
                a.match[c] = 0;
                break;
            }
        int64_t least = INT64_MAX;
        for (int c = 1; c <= n; c++) {
            int64_t reduced = cost_of(guide, moved, c - 1) - a.v[c];
            if (reduced < least) least = reduced;
        }
        a.u[row] = least;
        augment(guide, &a, row);
    } else {
        memcpy(a.rows, squares, sizeof(int16_t) * n);
        for (int row = 1; row <= n; row++) augment(guide, &a, row);
    }
    int64_t total = assignment_total(guide, &a);
    if (guide->kept.count >= KEPT_ASSIGNMENTS) guide_forget(guide);
    int64_t slot = keyset_put(&guide->kept, boxes, &added);
    if (slot < 0) {
        assignment_free(&a);
        return -1;
    }
    if (grow((void **)&guide->assignments, &guide->assignments_room, slot, sizeof(Assignment)) < 0) return -1;
    if (!added) assignment_free(&guide->assignments[slot]);
    guide->assignments[slot] = a;
    k = keyset_put(&guide->known, boxes, &added);
    if (k < 0) return -1;
    if (grow((void **)&guide->totals, &guide->totals_room, k, sizeof(int64_t)) < 0) return -1;
    guide->totals[k] = total;
    return total;
}

/* ---- the search ---------------------------------------------------------------------------- */

typedef struct {
    int stride, squares, width;     /* bits, and words a mask */
    word open[MAX_WORDS];
    const int32_t *distance;        /* per square: pushes of a lone box to the nearest target, -1 none */
    int16_t moves[1024][4][5];      /* per square: (to, stand, needs, blocked, blocked 2 or -1); to -1: none */
    uint8_t move_count[1024];
    int16_t *stack;
    PyObject **cells;               /* per square: its (x, y) tuple, made when first asked */
} Board;

static PyObject *cell_of(Board *board, int square) {
    if (!board->cells[square]) board->cells[square] = Py_BuildValue("(ii)", square % board->stride, square / board->stride);
    return board->cells[square];
}

static inline int is_open(const Board *board, int square) {
    return square >= 0 && square < board->squares && test_bit(board->open, square);
}

/* The squares of ``open & ~boxes`` joined to ``start``. */
static void flood(Board *board, const word *boxes, int start, word *region) {
    int stride = board->stride, top = 0;
    memset(region, 0, sizeof(word) * board->width);
    if (!is_open(board, start) || test_bit(boxes, start)) return;
    set_bit(region, start);
    board->stack[top++] = (int16_t)start;
    while (top) {
        int square = board->stack[--top];
        int near[4] = {square - 1, square + 1, square - stride, square + stride};
        for (int k = 0; k < 4; k++) {
            int next = near[k];
            if (next >= 0 && next < board->squares && test_bit(board->open, next) && !test_bit(boxes, next) &&
                !test_bit(region, next)) {
                set_bit(region, next);
                board->stack[top++] = (int16_t)next;
            }
        }
    }
}

/* push_search.MoveTable: each square's pushes (pulls), in the order of DIRECTIONS (l, u, r, d). */
static void build_moves(Board *board, int pulls) {
    int stride = board->stride;
    int offsets[4] = {-1, -stride, 1, stride};
    for (int square = 0; square < board->squares; square++) {
        board->move_count[square] = 0;
        if (!test_bit(board->open, square)) continue;
        for (int k = 0; k < 4; k++) {
            int ahead = square + offsets[k];
            int behind = pulls ? ahead + offsets[k] : square - offsets[k];
            if (!is_open(board, ahead) || !is_open(board, behind)) continue;
            int16_t *move = board->moves[square][board->move_count[square]++];
            move[0] = (int16_t)ahead;
            if (pulls) {
                move[1] = (int16_t)behind;
                move[2] = (int16_t)ahead;
                move[3] = (int16_t)ahead;
                move[4] = (int16_t)behind;
            } else {
                move[1] = (int16_t)square;
                move[2] = (int16_t)behind;
                move[3] = (int16_t)ahead;
                move[4] = -1;
            }
        }
    }
}

static int popcount_and(const word *a, const word *b, int width) {
    int count = 0;
    for (int i = 0; i < width; i++) count += __builtin_popcountll(a[i] & b[i]);
    return count;
}

static int any_and(const word *a, const word *b, int width) {
    for (int i = 0; i < width; i++)
        if (a[i] & b[i]) return 1;
    return 0;
}

static int covers(const word *a, const word *b, int width) { /* b a subset of a */
    for (int i = 0; i < width; i++)
        if ((a[i] & b[i]) != b[i]) return 0;
    return 1;
}

/* corrals.fenced_in */
static int fenced_in(const Board *board, const word *region, const word *fence, const word *corral) {
    int stride = board->stride;
    int pairs[4][2] = {{1, -1}, {-1, 1}, {stride, -stride}, {-stride, stride}};
    for (int square = 0; square < board->squares; square++) {
        if (!test_bit(fence, square)) continue;
        for (int k = 0; k < 4; k++) {
            int ahead = square + pairs[k][0], behind = square + pairs[k][1];
            int ahead_open = is_open(board, ahead), behind_open = is_open(board, behind);
            int blocked = !ahead_open || test_bit(fence, ahead) || !behind_open || test_bit(fence, behind) ||
                          test_bit(corral, behind);
            if (ahead_open && test_bit(corral, ahead)) {
                if (!blocked && !test_bit(region, behind)) return 0;
            } else if (!blocked) {
                return 0;
            }
        }
    }
    return 1;
}

/* corrals.pi_corral: the fence and corral worth entering with the fewest fence boxes; 0 if none. */
static int pi_corral(Board *board, const word *region, const word *boxes, const word *targets, int fill_all,
                     word *best_fence, word *best_corral) {
    int width = board->width, stride = board->stride, best_count = -1;
    word hidden[MAX_WORDS], corral[MAX_WORDS], fence[MAX_WORDS], walls[MAX_WORDS];
    int any = 0;
    for (int i = 0; i < width; i++) {
        hidden[i] = board->open[i] & ~region[i] & ~boxes[i];
        any |= hidden[i] != 0;
    }
    if (!any) return 0;
    for (int i = 0; i < width; i++) walls[i] = ~hidden[i];
    for (int start = 0; start < board->squares; start++) {
        if (!test_bit(hidden, start)) continue;
        flood(board, walls, start, corral);
        int fence_count = 0, off_targets = 0, holds_target = 0;
        memset(fence, 0, sizeof(word) * width);
        for (int square = 0; square < board->squares; square++) {
            if (!test_bit(corral, square)) continue;
            hidden[square >> 6] &= ~((word)1 << (square & 63));
            if (test_bit(targets, square)) holds_target = 1;
            int near[4] = {square - 1, square + 1, square - stride, square + stride};
            for (int k = 0; k < 4; k++) {
                int box = near[k];
                if (box >= 0 && box < board->squares && test_bit(boxes, box) && !test_bit(fence, box)) {
                    set_bit(fence, box);
                    fence_count++;
                    if (!test_bit(targets, box)) off_targets = 1;
                }
            }
        }
        for (int i = 0; i < width; i++) walls[i] = ~hidden[i];
        if (!off_targets && !(fill_all && holds_target)) continue;
        if (best_count >= 0 && fence_count >= best_count) continue;
        if (fenced_in(board, region, fence, corral)) {
            best_count = fence_count;
            memcpy(best_fence, fence, sizeof(word) * width);
            memcpy(best_corral, corral, sizeof(word) * width);
        }
    }
    return best_count >= 0;
}


static int sorted_cells(const Board *board, const word *bits, int16_t *out);
static int read_mask(PyObject *bytes, word *bits, int width);

/* ---- the deadlock prune: deadlocks.dead_group and, forwards, deadlocks.dead_freeze --------- */

/* Traps.deadlocked of a state whose box ``moved`` just moved: some group of two boxes with it, or of
 * three near each other (deadlocks.box_groups), not all on goals, that cannot all reach goals with
 * the player on its side (the answers come from Python, deadlocks.group_is_dead, and are kept by
 * group and side); or, forwards, a box that can never move again off a goal, or frozen boxes on
 * goals that leave some goals fewer boxes than they need (dead_freeze: a matching of the goals
 * left to the boxes that can reach them, frozen boxes as walls). Either answer is the Python's:
 * each is true when some group (some goal) fails, whatever order they are looked at in. */
typedef struct {
    word goals[MAX_WORDS];
    int16_t axes[1024][4];      /* per square: (ahead, behind) of its two axes; -1: no such axis */
    int freeze;
    PyObject *group_dead, *never_dead;
    KeySet answers;             /* packed (group, side) -> index into verdicts */
    uint8_t *verdicts;
    int64_t verdicts_room;
    KeySet frozen_sets;         /* frozen boxes -> index into sources (goals * width words each) */
    word *sources;
    int64_t sources_room;
    int goal_count;
    int16_t goal_squares[1024];
} Prune;

static int prune_init(Prune *prune, Board *board, PyObject *spec) {
    PyObject *goals_bytes, *axes_bytes;
    memset(prune, 0, sizeof(*prune));
    if (!PyArg_ParseTuple(spec, "SSiOO", &goals_bytes, &axes_bytes, &prune->freeze, &prune->group_dead,
                          &prune->never_dead))
        return -1;
    Py_INCREF(prune->group_dead);
    Py_INCREF(prune->never_dead);
    if (read_mask(goals_bytes, prune->goals, board->width) < 0) return -1;
    if (PyBytes_GET_SIZE(axes_bytes) != (Py_ssize_t)(sizeof(int16_t) * 4 * board->squares)) {
        PyErr_SetString(PyExc_ValueError, "axes: four int16 a square");
        return -1;
    }
    memcpy(prune->axes, PyBytes_AS_STRING(axes_bytes), sizeof(int16_t) * 4 * board->squares);
    for (int square = 0; square < board->squares; square++)
        if (test_bit(prune->goals, square)) prune->goal_squares[prune->goal_count++] = (int16_t)square;
    if (keyset_init(&prune->answers, 1) < 0 || keyset_init(&prune->frozen_sets, board->width) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void prune_free(Prune *prune) {
    Py_XDECREF(prune->group_dead);
    Py_XDECREF(prune->never_dead);
    keyset_free(&prune->answers);
    keyset_free(&prune->frozen_sets);
    free(prune->verdicts);
    free(prune->sources);
}

static inline int cell_before(int stride, int a, int b) { /* cells order: column, then row */
    int ax = a % stride, bx = b % stride;
    return ax != bx ? ax < bx : a / stride < b / stride;
}

/* The least square (cells order) of the player's part of the floor, ``group`` taken out:
 * deadlocks.group_sides' side of the player. */
static int least_of_side(Board *board, const int16_t *group, int size, int player) {
    word blocked[MAX_WORDS], region[MAX_WORDS];
    memset(blocked, 0, sizeof(word) * board->width);
    for (int k = 0; k < size; k++) set_bit(blocked, group[k]);
    flood(board, blocked, player, region);
    int least = -1;
    for (int i = 0; i < board->width; i++) {
        word w = region[i];
        while (w) {
            int square = i * 64 + __builtin_ctzll(w);
            w &= w - 1;
            if (least < 0 || cell_before(board->stride, square, least)) least = square;
        }
    }
    return least;
}

/* A kept answer (0 or 1), -1 when not kept yet; -2 on failure. */
static int remembered(Prune *prune, word key, int64_t *slot) {
    int added;
    int64_t k = keyset_put(&prune->answers, &key, &added);
    if (k < 0) return -2;
    if (grow((void **)&prune->verdicts, &prune->verdicts_room, k, 1) < 0) return -2;
    *slot = k;
    if (added) prune->verdicts[k] = 2;
    return prune->verdicts[k] == 2 ? -1 : prune->verdicts[k];
}

static int ask(PyObject *function, PyObject *first, PyObject *second) {
    PyObject *answer = second ? PyObject_CallFunctionObjArgs(function, first, second, NULL)
                              : PyObject_CallFunctionObjArgs(function, first, NULL);
    Py_DECREF(first);
    if (!answer) return -1;
    int truth = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return truth;
}

static PyObject *cells_tuple(Board *board, const int16_t *squares, int size) {
    PyObject *cells = PyTuple_New(size);
    if (!cells) return NULL;
    for (int k = 0; k < size; k++) {
        PyObject *cell = cell_of(board, squares[k]);
        if (!cell) {
            Py_DECREF(cells);
            return NULL;
        }
        Py_INCREF(cell);
        PyTuple_SET_ITEM(cells, k, cell);
    }
    return cells;
}

/* Whether the group (2 or 3 squares) is dead with the player on ``player``; -1 on failure. */
static int group_is_dead(Prune *prune, Board *board, int16_t *group, int size, int player) {
    for (int i = 1; i < size; i++) /* sort into cells order, as the Python's groups */
        for (int j = i; j > 0 && cell_before(board->stride, group[j], group[j - 1]); j--) {
            int16_t t = group[j];
            group[j] = group[j - 1];
            group[j - 1] = t;
        }
    int off_goal = 0;
    for (int k = 0; k < size; k++) off_goal |= !test_bit(prune->goals, group[k]);
    if (!off_goal) return 0;
    word base = (word)group[0] | (word)group[1] << 11 | (word)(size == 3 ? group[2] : 2047) << 22;
    int64_t slot;
    int known;
    if (size == 2 && prune->never_dead != Py_None) {
        known = remembered(prune, base | (word)2047 << 33, &slot);
        if (known == -2) return -1;
        if (known < 0) {
            PyObject *pair = cells_tuple(board, group, 2);
            if (!pair || (known = ask(prune->never_dead, pair, NULL)) < 0) return -1;
            prune->verdicts[slot] = (uint8_t)known;
        }
        if (known) return 0;
    }
    int side = least_of_side(board, group, size, player);
    known = remembered(prune, base | (word)side << 33, &slot);
    if (known == -2) return -1;
    if (known < 0) {
        PyObject *cells = cells_tuple(board, group, size);
        if (!cells) return -1;
        PyObject *where = cell_of(board, side);
        Py_INCREF(where);
        known = ask(prune->group_dead, cells, where);
        Py_DECREF(where);
        if (known < 0) return -1;
        prune->verdicts[slot] = (uint8_t)known;
    }
    return known;
}

static inline int near(int stride, int a, int b) {
    int dx = a % stride - b % stride, dy = a / stride - b / stride;
    return dx >= -2 && dx <= 2 && dy >= -2 && dy <= 2 && (dx || dy);
}

/* deadlocks.dead_group with ``moved``: a dead pair or near triple holding the moved box. */
static int dead_group(Prune *prune, Board *board, const int16_t *boxes, int count, int moved, int player) {
    int stride = board->stride;
    int16_t group[3];
    for (int k = 0; k < count; k++) {
        if (boxes[k] == moved) continue;
        group[0] = (int16_t)moved;
        group[1] = boxes[k];
        int dead = group_is_dead(prune, board, group, 2, player);
        if (dead) return dead;
    }
    for (int a = 0; a < count; a++) {
        if (boxes[a] == moved || !near(stride, moved, boxes[a])) continue;
        for (int b = 0; b < count; b++) { /* a near the moved box; b near it too, or near a */
            if (b == a || boxes[b] == moved) continue;
            if (!near(stride, boxes[a], boxes[b]) && !near(stride, moved, boxes[b])) continue;
            if (near(stride, moved, boxes[b]) && b < a) continue; /* both near the moved box: once */
            group[0] = (int16_t)moved;
            group[1] = boxes[a];
            group[2] = boxes[b];
            int dead = group_is_dead(prune, board, group, 3, player);
            if (dead) return dead;
        }
    }
    return 0;
}

/* deadlocks.goal_sources' squares for each goal left empty by ``frozen``: where a lone box is
 * pushed to it from, the frozen boxes walls. Kept by frozen set; NULL on failure. */
static const word *sources_of(Prune *prune, Board *board, const word *frozen) {
    int added, width = board->width, stride = board->stride;
    int64_t k = keyset_put(&prune->frozen_sets, frozen, &added);
    if (k < 0) return NULL;
    int64_t size = (int64_t)prune->goal_count * width;
    if (grow((void **)&prune->sources, &prune->sources_room, k, sizeof(word) * size) < 0) return NULL;
    word *out = prune->sources + k * size;
    if (!added) return out;
    int offsets[4] = {-1, -stride, 1, stride};
    for (int g = 0; g < prune->goal_count; g++) {
        word *reached = out + (int64_t)g * width;
        memset(reached, 0, sizeof(word) * width);
        int goal = prune->goal_squares[g];
        if (test_bit(frozen, goal)) continue;
        int top = 0;
        set_bit(reached, goal);
        board->stack[top++] = (int16_t)goal;
        while (top) {
            int cell = board->stack[--top];
            for (int d = 0; d < 4; d++) {
                int before = cell - offsets[d], stand = before - offsets[d];
                if (is_open(board, before) && !test_bit(frozen, before) && is_open(board, stand) &&
                    !test_bit(frozen, stand) && !test_bit(reached, before)) {
                    set_bit(reached, before);
                    board->stack[top++] = (int16_t)before;
                }
            }
        }
    }
    return out;
}

static int augmenting(const word *sources, int width, const int16_t *goals, int goal_count, int g, const word *boxes,
                      int16_t *owner_of_box, uint8_t *visited, int squares) {
    const word *reached = sources + (int64_t)g * width;
    for (int i = 0; i < width; i++) {
        word w = reached[i] & boxes[i];
        while (w) {
            int box = i * 64 + __builtin_ctzll(w);
            w &= w - 1;
            if (visited[box]) continue;
            visited[box] = 1;
            if (owner_of_box[box] < 0 ||
                augmenting(sources, width, goals, goal_count, owner_of_box[box], boxes, owner_of_box, visited, squares)) {
                owner_of_box[box] = (int16_t)g;
                return 1;
            }
        }
    }
    return 0;
}

/* deadlocks.dead_freeze, as a verdict: 1 dead, 0 not, -1 on failure. */
static int dead_freeze(Prune *prune, Board *board, const word *boxes, const int16_t *squares_of, int count) {
    int width = board->width;
    word movable[MAX_WORDS], frozen[MAX_WORDS];
    int16_t stuck[1024];
    int stuck_count = 0;
    memcpy(movable, boxes, sizeof(word) * width);
    for (int k = 0; k < count; k++) {
        int box = squares_of[k], free_axis = 0;
        for (int a = 0; a < 2 && !free_axis; a++) {
            int ahead = prune->axes[box][2 * a], behind = prune->axes[box][2 * a + 1];
            free_axis = ahead >= 0 && !test_bit(boxes, ahead) && !test_bit(boxes, behind);
        }
        if (!free_axis) {
            stuck[stuck_count++] = (int16_t)box;
            movable[box >> 6] &= ~((word)1 << (box & 63));
        }
    }
    if (!stuck_count) return 0;
    for (int grown = 1; grown;) {
        grown = 0;
        for (int k = 0; k < stuck_count; k++) {
            int box = stuck[k];
            if (test_bit(movable, box)) continue;
            for (int a = 0; a < 2; a++) {
                int ahead = prune->axes[box][2 * a], behind = prune->axes[box][2 * a + 1];
                if (ahead < 0) continue;
                if ((!test_bit(boxes, ahead) || test_bit(movable, ahead)) &&
                    (!test_bit(boxes, behind) || test_bit(movable, behind))) {
                    set_bit(movable, box);
                    grown = 1;
                    break;
                }
            }
        }
    }
    int any = 0;
    for (int i = 0; i < width; i++) {
        frozen[i] = boxes[i] & ~movable[i];
        any |= frozen[i] != 0;
        if (frozen[i] & ~prune->goals[i]) return 1; /* a frozen box off the goals */
    }
    if (!any) return 0;
    const word *sources = sources_of(prune, board, frozen);
    if (!sources) return -1;
    int16_t owner_of_box[1024];
    uint8_t visited[1024];
    for (int i = 0; i < board->squares; i++) owner_of_box[i] = -1;
    for (int g = 0; g < prune->goal_count; g++) {
        if (test_bit(frozen, prune->goal_squares[g])) continue;
        memset(visited, 0, board->squares);
        if (!augmenting(sources, width, prune->goal_squares, prune->goal_count, g, movable, owner_of_box, visited,
                        board->squares))
            return 1; /* a goal left without a box of its own */
    }
    return 0;
}

static int prune_dead(Prune *prune, Board *board, const word *boxes, int moved, int player, int pulls) {
    int16_t squares_of[1024];
    int count = sorted_cells(board, boxes, squares_of);
    int dead = dead_group(prune, board, squares_of, count, moved, player);
    if (dead || pulls || !prune->freeze) return dead;
    return dead_freeze(prune, board, boxes, squares_of, count);
}


/* A floor's prune kept between calls (a capsule): its board and the answers it has kept. */
typedef struct {
    Board board;
    Prune prune;
} Deadlocks;

static int board_init(Board *board, int stride, int squares, PyObject *open_bytes) {
    if (squares > 64 * MAX_WORDS || squares < 1 || stride < 2) {
        PyErr_SetString(PyExc_ValueError, "board too large for the kernel");
        return -1;
    }
    board->stride = stride;
    board->squares = squares;
    board->width = (squares + 63) / 64;
    board->stack = malloc(sizeof(int16_t) * (squares + 1));
    board->cells = calloc(squares, sizeof(PyObject *));
    if (!board->stack || !board->cells) {
        PyErr_NoMemory();
        return -1;
    }
    return read_mask(open_bytes, board->open, board->width);
}

static void board_free(Board *board) {
    if (board->cells)
        for (int i = 0; i < board->squares; i++) Py_XDECREF(board->cells[i]);
    free(board->cells);
    free(board->stack);
    board->cells = NULL;
    board->stack = NULL;
}

static void deadlocks_free(PyObject *capsule) {
    Deadlocks *owner = PyCapsule_GetPointer(capsule, "sokoasp.deadlocks");
    if (!owner) return;
    prune_free(&owner->prune);
    board_free(&owner->board);
    free(owner);
}

/* deadlocks(stride, squares, open, (goals, axes, freeze, group_dead, never_dead)) -> capsule */
static PyObject *kernel_deadlocks(PyObject *self, PyObject *args) {
    int stride, squares;
    PyObject *open_bytes, *spec;
    if (!PyArg_ParseTuple(args, "iiSO!", &stride, &squares, &open_bytes, &PyTuple_Type, &spec)) return NULL;
    Deadlocks *owner = calloc(1, sizeof(Deadlocks));
    if (!owner) return PyErr_NoMemory();
    if (board_init(&owner->board, stride, squares, open_bytes) < 0 || prune_init(&owner->prune, &owner->board, spec) < 0) {
        prune_free(&owner->prune);
        board_free(&owner->board);
        free(owner);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(owner, "sokoasp.deadlocks", deadlocks_free);
    if (!capsule) {
        prune_free(&owner->prune);
        board_free(&owner->board);
        free(owner);
    }
    return capsule;
}

/* deadlocked(capsule, boxes, player, moved, pulls) -> bool: the prune of one state. */
static PyObject *kernel_deadlocked(PyObject *self, PyObject *args) {
    PyObject *capsule, *boxes_bytes;
    int player, moved, pulls;
    if (!PyArg_ParseTuple(args, "OSiii", &capsule, &boxes_bytes, &player, &moved, &pulls)) return NULL;
    Deadlocks *owner = PyCapsule_GetPointer(capsule, "sokoasp.deadlocks");
    if (!owner) return NULL;
    word boxes[MAX_WORDS];
    if (read_mask(boxes_bytes, boxes, owner->board.width) < 0) return NULL;
    if (moved < 0 || moved >= owner->board.squares || player < 0 || player >= owner->board.squares) {
        PyErr_SetString(PyExc_ValueError, "a square off the board");
        return NULL;
    }
    int dead = prune_dead(&owner->prune, &owner->board, boxes, moved, player, pulls);
    if (dead < 0) return NULL;
    return PyBool_FromLong(dead);
}


/* ---- the feature search's routes: feature_search.box_routes ------------------------------ */

typedef struct {
    Board board;
    int32_t *distance;
} Routes;

static void routes_free(PyObject *capsule) {
    Routes *routes = PyCapsule_GetPointer(capsule, "sokoasp.routes");
    if (!routes) return;
    board_free(&routes->board);
    free(routes->distance);
    free(routes);
}

/* routes(stride, squares, open, distance) -> capsule: a floor's pushes and distances, kept. */
static PyObject *kernel_routes(PyObject *self, PyObject *args) {
    int stride, squares;
    PyObject *open_bytes, *distance_bytes;
    if (!PyArg_ParseTuple(args, "iiSS", &stride, &squares, &open_bytes, &distance_bytes)) return NULL;
    Routes *routes = calloc(1, sizeof(Routes));
    if (!routes) return PyErr_NoMemory();
    if (board_init(&routes->board, stride, squares, open_bytes) < 0) goto fail;
    if (PyBytes_GET_SIZE(distance_bytes) != (Py_ssize_t)(sizeof(int32_t) * squares)) {
        PyErr_SetString(PyExc_ValueError, "distance: one int32 a square");
        goto fail;
    }
    routes->distance = malloc(sizeof(int32_t) * squares);
    if (!routes->distance) {
        PyErr_NoMemory();
        goto fail;
    }
    memcpy(routes->distance, PyBytes_AS_STRING(distance_bytes), sizeof(int32_t) * squares);
    routes->board.distance = routes->distance;
    build_moves(&routes->board, 0);
    PyObject *capsule = PyCapsule_New(routes, "sokoasp.routes", routes_free);
    if (capsule) return capsule;
fail:
    board_free(&routes->board);
    free(routes->distance);
    free(routes);
    return NULL;
}

/* box_routes(capsule, others, box, region) -> [(square, stand as a bit, pushes), ...]: every square
 * the box on ``box`` is pushed to alone, the boxes ``others`` fixed, the player starting in
 * ``region``, once per player region there, breadth first: feature_search.box_routes. */
static PyObject *kernel_box_routes(PyObject *self, PyObject *args) {
    PyObject *capsule, *others_bytes, *region_bytes;
    int box;
    if (!PyArg_ParseTuple(args, "OSiS", &capsule, &others_bytes, &box, &region_bytes)) return NULL;
    Routes *routes = PyCapsule_GetPointer(capsule, "sokoasp.routes");
    if (!routes) return NULL;
    Board *board = &routes->board;
    int width = board->width;
    word others[MAX_WORDS], walls[MAX_WORDS], key[MAX_WORDS + 1];
    if (read_mask(others_bytes, others, width) < 0 || read_mask(region_bytes, key, width) < 0) return NULL;
    if (box < 0 || box >= board->squares) {
        PyErr_SetString(PyExc_ValueError, "a square off the board");
        return NULL;
    }
    KeySet seen;
    word *regions = NULL;                /* per state: its region */
    int64_t *parent = NULL, regions_room = 0, parent_room = 0, count = 0;
    int16_t(*move)[3] = NULL;            /* per state: square before, after, player's square after */
    int64_t move_room = 0;
    PyObject *found = NULL;
    if (keyset_init(&seen, width + 1) < 0) goto memory;
    int added;
    key[width] = (word)box;
    if (keyset_put(&seen, key, &added) < 0) goto memory;
    if (grow((void **)&regions, &regions_room, 0, sizeof(word) * width) < 0 ||
        grow((void **)&parent, &parent_room, 0, sizeof(int64_t)) < 0 ||
        grow((void **)&move, &move_room, 0, sizeof(int16_t[3])) < 0)
        goto memory;
    memcpy(regions, key, sizeof(word) * width);
    parent[0] = -1;
    move[0][1] = (int16_t)box;
    count = 1;
    for (int64_t head = 0; head < count; head++) {
        int square = move[head][1];
        for (int m = 0; m < board->move_count[square]; m++) {
            const int16_t *step = board->moves[square][m];
            int to = step[0], stand = step[1];
            if (!test_bit(regions + head * width, step[2]) || test_bit(others, step[3]) || routes->distance[to] < 0) continue;
            memcpy(walls, others, sizeof(word) * width);
            set_bit(walls, to);
            flood(board, walls, stand, key);
            key[width] = (word)to;
            if (keyset_put(&seen, key, &added) < 0) goto memory;
            if (!added) continue;
            if (grow((void **)&regions, &regions_room, count, sizeof(word) * width) < 0 ||
                grow((void **)&parent, &parent_room, count, sizeof(int64_t)) < 0 ||
                grow((void **)&move, &move_room, count, sizeof(int16_t[3])) < 0)
                goto memory;
            memcpy(regions + count * width, key, sizeof(word) * width);
            parent[count] = head;
            move[count][0] = (int16_t)square;
            move[count][1] = (int16_t)to;
            move[count][2] = (int16_t)stand;
            count++;
        }
    }
    if (!(found = PyList_New(count - 1))) goto done;
    for (int64_t k = 1; k < count; k++) {
        int length = 0;
        for (int64_t at = k; at > 0; at = parent[at]) length++;
        PyObject *pushes = PyTuple_New(length), *one = PyLong_FromLong(1), *shift = PyLong_FromLong(move[k][2]);
        PyObject *stand = one && shift ? PyNumber_Lshift(one, shift) : NULL;
        Py_XDECREF(one);
        Py_XDECREF(shift);
        if (!pushes || !stand) {
            Py_XDECREF(pushes);
            Py_XDECREF(stand);
            Py_CLEAR(found);
            goto done;
        }
        int index = length;
        for (int64_t at = k; at > 0; at = parent[at]) {
            PyObject *push = PyTuple_Pack(2, cell_of(board, move[at][0]), cell_of(board, move[at][1]));
            if (!push) {
                Py_DECREF(pushes);
                Py_DECREF(stand);
                Py_CLEAR(found);
                goto done;
            }
            PyTuple_SET_ITEM(pushes, --index, push);
        }
        PyObject *entry = Py_BuildValue("(ONN)", cell_of(board, move[k][1]), stand, pushes);
        if (!entry) {
            Py_CLEAR(found);
            goto done;
        }
        PyList_SET_ITEM(found, k - 1, entry);
    }
    goto done;
memory:
    PyErr_NoMemory();
done:
    keyset_free(&seen);
    free(regions);
    free(parent);
    free(move);
    return found;
}

static PyObject *int_of(const word *bits, int width) {
    PyObject *value = PyLong_FromLong(0);
    for (int i = width - 1; i >= 0 && value; i--) {
        PyObject *shift = PyLong_FromLong(64), *shifted = PyNumber_Lshift(value, shift);
        Py_DECREF(shift);
        Py_DECREF(value);
        if (!shifted) return NULL;
        PyObject *low = PyLong_FromUnsignedLongLong(bits[i]);
        value = low ? PyNumber_Or(shifted, low) : NULL;
        Py_XDECREF(low);
        Py_DECREF(shifted);
    }
    return value;
}

static PyObject *key_of(const word *boxes, const word *region, int width) {
    PyObject *a = int_of(boxes, width), *b = a ? int_of(region, width) : NULL;
    PyObject *pair = b ? PyTuple_Pack(2, a, b) : NULL;
    Py_XDECREF(a);
    Py_XDECREF(b);
    return pair;
}

static int read_mask(PyObject *bytes, word *bits, int width) {
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(bytes, &data, &size) < 0) return -1;
    memset(bits, 0, sizeof(word) * width);
    if (size > (Py_ssize_t)(sizeof(word) * width)) {
        PyErr_SetString(PyExc_ValueError, "mask wider than the board");
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) bits[i / 8] |= (word)(unsigned char)data[i] << (8 * (i % 8));
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The squares of ``bits``, sorted as cells (column, then row): ``sorted(boxes)``. */
static int sorted_cells(const Board *board, const word *bits, int16_t *out) {
    int count = 0;
    for (int i = 0; i < board->width; i++) {
        word w = bits[i];
        while (w) {
            out[count++] = (int16_t)(i * 64 + __builtin_ctzll(w));
            w &= w - 1;
        }
    }
    for (int i = 1; i < count; i++) { /* insertion sort into cells order: a few dozen boxes */
        int16_t square = out[i];
        int j = i - 1;
        for (; j >= 0 && cell_before(board->stride, square, out[j]); j--) out[j + 1] = out[j];
        out[j + 1] = square;
    }
    return count;
}

typedef struct {
    Board *board;
    KeySet nodes;       /* (boxes, player square) */
    int64_t *parent;    /* per node: the node it was first found from, -1 at the start */
    int16_t (*move)[2]; /* per node: the move from the parent */
    uint8_t *taken;
    int64_t node_room;
    KeySet seen;        /* (boxes, region) */
    Heap heap;
    Guide guide;
    int has_guide;
} Search;

static int64_t node_of(Search *search, const word *boxes, int stand, int *added) {
    word key[MAX_WORDS + 1];
    int width = search->board->width;
    memcpy(key, boxes, sizeof(word) * width);
    key[width] = (word)stand;
    int64_t k = keyset_put(&search->nodes, key, added);
    if (k < 0) return -1;
    int64_t rooms[3] = {search->node_room, search->node_room, search->node_room};
    if (grow((void **)&search->parent, &rooms[0], k, sizeof(int64_t)) < 0 ||
        grow((void **)&search->move, &rooms[1], k, sizeof(int16_t[2])) < 0 ||
        grow((void **)&search->taken, &rooms[2], k, 1) < 0)
        return -1;
    search->node_room = rooms[0];
    if (*added) search->taken[k] = 0;
    return k;
}

static const word *node_boxes(const Search *search, int64_t node) {
    return search->nodes.keys + node * search->nodes.width;
}

static PyObject *moves_to(Search *search, int64_t node) {
    PyObject *moves = PyList_New(0);
    if (!moves) return NULL;
    Board *board = search->board;
    while (node >= 0 && search->parent[node] >= 0) {
        PyObject *move = PyTuple_Pack(2, cell_of(board, search->move[node][0]), cell_of(board, search->move[node][1]));
        if (!move || PyList_Append(moves, move) < 0) {
            Py_XDECREF(move);
            Py_DECREF(moves);
            return NULL;
        }
        Py_DECREF(move);
        node = search->parent[node];
    }
    if (PyList_Reverse(moves) < 0) {
        Py_DECREF(moves);
        return NULL;
    }
    return moves;
}

static PyObject *boxes_set(Board *board, const word *boxes) {
    PyObject *cells = PyFrozenSet_New(NULL);
    if (!cells) return NULL;
    for (int i = 0; i < board->width; i++) {
        word w = boxes[i];
        while (w) {
            int square = i * 64 + __builtin_ctzll(w);
            w &= w - 1;
            if (PySet_Add(cells, cell_of(board, square)) < 0) {
                Py_DECREF(cells);
                return NULL;
            }
        }
    }
    return cells;
}

/* search(stride, squares, open, boxes, player, distance, targets, escape, home, enough, pulls, states,
 *        deadline, newest_first, corrals, prune, live, costs, keep_seen)
 * -> (stop, moves, taken, seen): see kernel.py. */
static PyObject *kernel_search(PyObject *self, PyObject *args) {
    int stride, squares, player, enough, pulls, newest_first, corrals, keep_seen;
    long long states_limit;
    double deadline;
    PyObject *open_bytes, *boxes_bytes, *distance_bytes, *targets_bytes, *escape_bytes, *home_bytes, *prune, *live,
        *costs_bytes;
    if (!PyArg_ParseTuple(args, "iiSSiSSSSiiLdiiOOOi", &stride, &squares, &open_bytes, &boxes_bytes, &player,
                          &distance_bytes, &targets_bytes, &escape_bytes, &home_bytes, &enough, &pulls, &states_limit,
                          &deadline, &newest_first, &corrals, &prune, &live, &costs_bytes, &keep_seen))
        return NULL;
    int width = (squares + 63) / 64;
    PyObject *result = NULL, *seen_out = NULL;
    Board *board = calloc(1, sizeof(Board));
    Search search;
    memset(&search, 0, sizeof(search));
    Prune *deadlocks = NULL;
    word start[MAX_WORDS], targets[MAX_WORDS], escape[MAX_WORDS], home[MAX_WORDS];
    if (!board) return PyErr_NoMemory();
    search.board = board;
    if (board_init(board, stride, squares, open_bytes) < 0 || read_mask(boxes_bytes, start, width) < 0 ||
        read_mask(targets_bytes, targets, width) < 0 || read_mask(escape_bytes, escape, width) < 0 ||
        read_mask(home_bytes, home, width) < 0)
        goto done;
    if (PyBytes_GET_SIZE(distance_bytes) != (Py_ssize_t)(sizeof(int32_t) * squares)) {
        PyErr_SetString(PyExc_ValueError, "distance: one int32 a square");
        goto done;
    }
    board->distance = (const int32_t *)PyBytes_AS_STRING(distance_bytes);
    build_moves(board, pulls);
    int box_count = 0;
    for (int i = 0; i < width; i++) box_count += __builtin_popcountll(start[i]);
    search.has_guide = costs_bytes != Py_None;
    if (search.has_guide) {
        if (!PyBytes_Check(costs_bytes) ||
            PyBytes_GET_SIZE(costs_bytes) != (Py_ssize_t)(sizeof(int32_t) * squares * box_count)) {
            PyErr_SetString(PyExc_ValueError, "costs: one int32 a square and target, as many targets as boxes");
            goto done;
        }
        if (guide_init(&search.guide, box_count, (const int32_t *)PyBytes_AS_STRING(costs_bytes), width) < 0) goto memory;
    }
    int has_prune = prune != Py_None, compiled_prune = PyCapsule_CheckExact(prune), has_live = live != Py_None && PySet_GET_SIZE(live) > 0;
    int fill_all = popcount_and(targets, targets, width) == box_count;
    int has_escape = 0, has_home = 0;
    for (int i = 0; i < width; i++) {
        has_escape |= escape[i] != 0;
        has_home |= home[i] != 0;
    }
    if (keyset_init(&search.nodes, width + 1) < 0 || keyset_init(&search.seen, 2 * width) < 0) goto memory;
    if (keep_seen && !(seen_out = PySet_New(NULL))) goto done;
    if (compiled_prune) {
        Deadlocks *owner = PyCapsule_GetPointer(prune, "sokoasp.deadlocks");
        if (!owner) goto done;
        if (owner->board.stride != stride || owner->board.squares != squares ||
            memcmp(owner->board.open, board->open, sizeof(word) * width) != 0) {
            PyErr_SetString(PyExc_ValueError, "the prune is for another floor");
            goto done;
        }
        deadlocks = &owner->prune;
    }

    int added;
    int64_t first = node_of(&search, start, player, &added);
    if (first < 0) goto memory;
    search.parent[first] = -1;
    int16_t squares_of[1024];
    int count = sorted_cells(board, start, squares_of);
    int64_t summed = 0;
    for (int i = 0; i < count; i++) summed += board->distance[squares_of[i]];
    int64_t found = 0, taken_count = 0;
    Entry entry = {summed, found, first, -1, (int32_t)summed, -1, -1, 1};
    if (heap_push(&search.heap, entry) < 0) goto memory;
    word boxes[MAX_WORDS], region[MAX_WORDS], key[2 * MAX_WORDS], fence[MAX_WORDS], corral[MAX_WORDS], before[MAX_WORDS];
    int stop = EXHAUSTED;
    int64_t stop_node = -1;
    while (search.heap.count) {
        entry = heap_pop(&search.heap);
        if (search.taken[entry.node]) continue;
        memcpy(boxes, node_boxes(&search, entry.node), sizeof(word) * width);
        int stand = (int)node_boxes(&search, entry.node)[width];
        if (!entry.settled && search.has_guide) {
            const word *parent_boxes = NULL;
            if (entry.source >= 0) {
                memcpy(before, boxes, sizeof(word) * width);
                before[entry.moved >> 6] ^= (word)1 << (entry.moved & 63);
                before[entry.source >> 6] ^= (word)1 << (entry.source & 63);
                parent_boxes = before;
            }
            count = sorted_cells(board, boxes, squares_of);
            int64_t matched = guide_cost(&search.guide, boxes, squares_of, parent_boxes, entry.source, entry.moved);
            if (matched < 0) goto memory;
            if (matched >= INF) continue;
            if (matched > entry.priority) {
                found++;
                entry.priority = matched;
                entry.settled = 1;
                entry.order = found;
                if (heap_push(&search.heap, entry) < 0) goto memory;
                continue;
            }
        }
        search.taken[entry.node] = 1;
        flood(board, boxes, stand, region);
        memcpy(key, boxes, sizeof(word) * width);
        memcpy(key + width, region, sizeof(word) * width);
        if (keyset_find(&search.seen, key) >= 0) continue;
        if (taken_count >= states_limit) {
            stop = STATE_LIMIT;
            break;
        }
        if (deadline < 1e300 && now() > deadline) {
            stop = DEADLINE;
            break;
        }
        if (keyset_put(&search.seen, key, &added) < 0) goto memory;
        taken_count++;
        if (seen_out) {
            PyObject *pair = key_of(boxes, region, width);
            if (!pair || PySet_Add(seen_out, pair) < 0) {
                Py_XDECREF(pair);
                goto done;
            }
            Py_DECREF(pair);
        }
        if ((taken_count & 1023) == 0 && PyErr_CheckSignals() < 0) goto done;
        if (entry.moved >= 0 && compiled_prune) {
            int dead = prune_dead(deadlocks, board, boxes, entry.moved, stand, pulls);
            if (dead < 0) goto done;
            if (dead) continue;
        } else if (entry.moved >= 0 && has_prune) {
            PyObject *cells = boxes_set(board, boxes);
            if (!cells) goto done;
            PyObject *dead = PyObject_CallFunctionObjArgs(prune, cells, cell_of(board, stand), cell_of(board, entry.moved), NULL);
            Py_DECREF(cells);
            if (!dead) goto done;
            int is_dead = PyObject_IsTrue(dead);
            Py_DECREF(dead);
            if (is_dead < 0) goto done;
            if (is_dead) continue;
        }
        if ((popcount_and(boxes, targets, width) >= enough && (!has_home || covers(region, home, width))) ||
            (has_escape && any_and(region, escape, width))) {
            stop = FOUND;
            stop_node = entry.node;
            break;
        }
        if (has_live) {
            PyObject *pair = key_of(boxes, region, width);
            if (!pair) goto done;
            int inside = PySet_Contains(live, pair);
            Py_DECREF(pair);
            if (inside < 0) goto done;
            if (inside) {
                stop = LIVE;
                break;
            }
        }
        int fenced = corrals && pi_corral(board, region, boxes, targets, fill_all, fence, corral);
        if (fenced) {
            count = 0;
            for (int square = 0; square < squares; square++)
                if (test_bit(fence, square)) squares_of[count++] = (int16_t)square;
        } else {
            count = sorted_cells(board, boxes, squares_of);
        }
        for (int b = 0; b < count; b++) {
            int box = squares_of[b];
            int64_t box_distance = entry.summed - board->distance[box];
            for (int m = 0; m < board->move_count[box]; m++) {
                const int16_t *move = board->moves[box][m];
                int to = move[0], stand_after = move[1], needs = move[2];
                if (!test_bit(region, needs) || test_bit(boxes, move[3]) || (move[4] >= 0 && test_bit(boxes, move[4])))
                    continue;
                if (fenced && !test_bit(corral, to)) continue;
                if (board->distance[to] < 0) continue;
                word moved[MAX_WORDS];
                memcpy(moved, boxes, sizeof(word) * width);
                moved[box >> 6] ^= (word)1 << (box & 63);
                moved[to >> 6] |= (word)1 << (to & 63);
                int64_t node = node_of(&search, moved, stand_after, &added);
                if (node < 0) goto memory;
                if (!added && search.taken[node]) continue;
                found++;
                if (added) {
                    search.parent[node] = entry.node;
                    search.move[node][0] = (int16_t)box;
                    search.move[node][1] = (int16_t)to;
                }
                int64_t after = box_distance + board->distance[to];
                Entry next = {after, newest_first ? -found : found, node, entry.node, (int32_t)after, (int16_t)box,
                              (int16_t)to, (uint8_t)!search.has_guide};
                if (heap_push(&search.heap, next) < 0) goto memory;
            }
        }
    }
    {
        PyObject *moves = stop == FOUND ? moves_to(&search, stop_node) : (Py_INCREF(Py_None), Py_None);
        if (!moves) goto done;
        result = Py_BuildValue("(iNLO)", stop, moves, (long long)taken_count, seen_out ? seen_out : Py_None);
    }
    goto done;
memory:
    PyErr_NoMemory();
done:
    Py_XDECREF(seen_out);
    board_free(board);
    free(board);
    keyset_free(&search.nodes);
    keyset_free(&search.seen);
    free(search.parent);
    free(search.move);
    free(search.taken);
    free(search.heap.items);
    if (search.has_guide) guide_free(&search.guide);
    return result;
}

/* path_keys(stride, squares, open, boxes, moves, pulls) -> [(boxes, region), ...]: the keys of the
 * states along ``moves`` (square indices (before, after)) from ``boxes``, the player where each
 * move leaves it (push_search.stand_after): deadlocks.LiveStates.learn's keys. */
static PyObject *kernel_path_keys(PyObject *self, PyObject *args) {
    int stride, squares, pulls;
    PyObject *open_bytes, *boxes_bytes, *moves;
    if (!PyArg_ParseTuple(args, "iiSSOi", &stride, &squares, &open_bytes, &boxes_bytes, &moves, &pulls)) return NULL;
    Board *board = calloc(1, sizeof(Board));
    if (!board) return PyErr_NoMemory();
    PyObject *keys = NULL;
    word boxes[MAX_WORDS], region[MAX_WORDS];
    if (board_init(board, stride, squares, open_bytes) < 0 || read_mask(boxes_bytes, boxes, board->width) < 0) goto done;
    Py_ssize_t count = PySequence_Length(moves);
    if (count < 0 || !(keys = PyList_New(count))) goto done;
    for (Py_ssize_t k = 0; k < count; k++) {
        int before, after;
        PyObject *move = PySequence_GetItem(moves, k);
        int parsed = move && PyArg_ParseTuple(move, "ii", &before, &after);
        Py_XDECREF(move);
        if (!parsed || before < 0 || after < 0 || before >= squares || after >= squares) {
            if (parsed) PyErr_SetString(PyExc_ValueError, "a move off the board");
            Py_CLEAR(keys);
            goto done;
        }
        boxes[before >> 6] &= ~((word)1 << (before & 63));
        set_bit(boxes, after);
        flood(board, boxes, pulls ? 2 * after - before : before, region);
        PyObject *key = key_of(boxes, region, board->width);
        if (!key) {
            Py_CLEAR(keys);
            goto done;
        }
        PyList_SET_ITEM(keys, k, key);
    }
done:
    board_free(board);
    free(board);
    return keys;
}

static PyMethodDef methods[] = {
    {"routes", kernel_routes, METH_VARARGS, "A floor's pushes and distances for box_routes (see kernel.py)."},
    {"box_routes", kernel_box_routes, METH_VARARGS, "The feature search's routes of one box (see kernel.py)."},
    {"deadlocks", kernel_deadlocks, METH_VARARGS, "A floor's deadlock prune, kept between calls (see kernel.py)."},
    {"deadlocked", kernel_deadlocked, METH_VARARGS, "The deadlock prune of one state (see kernel.py)."},
    {"path_keys", kernel_path_keys, METH_VARARGS, "The (boxes, region) keys along a path of moves (see kernel.py)."},
    {"search", kernel_search, METH_VARARGS, "The push search of push_search.push_search (see kernel.py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search_kernel", "The compiled push search.", -1, methods};

PyMODINIT_FUNC PyInit__search_kernel(void) { return PyModule_Create(&module); }
