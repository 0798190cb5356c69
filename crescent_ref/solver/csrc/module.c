/* The extension module crescent_ref.solver._core: the Core type (one per profile, built by
 * crescent_ref/solver/fast.py), its constructor reading the profile's flags, and the module. */
#include "core.h"

static int Core_init(Core *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"wrap", "limit", "between", "give_backs", "autoplay", "order", "hold",
                            "stuck_no_move", "position", "moves", "reshuffle", NULL};
    PyObject *order, *postype, *actions, *resh;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "pipppOppOOO", names, &self->wrap, &self->limit, &self->between,
                                     &self->give_backs, &self->autoplay, &order, &self->hold, &self->stuck_no_move,
                                     &postype, &actions, &resh))
        return -1;
    if (!PyType_Check(postype) || !PyTuple_Check(actions) || PyTuple_GET_SIZE(actions) != NPLACES) {
        PyErr_SetString(PyExc_TypeError, "Core: position is the Position type, moves the MOVES table");
        return -1;
    }
    self->ordered = order != Py_None;
    if (self->ordered) {
        int seen[NPILES] = {0};
        if (read_ints(order, self->order, NPILES, "order") < 0) return -1;
        for (int i = 0; i < NPILES; i++) {
            if (self->order[i] >= NPILES || seen[self->order[i]]++) {
                PyErr_SetString(PyExc_ValueError, "Core: order is the 16 piles (0-based), each once");
                return -1;
            }
        }
    }
    if (self->limit < 0) self->limit = 0;
    self->collapse = self->between && !self->give_backs && !self->autoplay;
    for (int card = 0; card < 52; card++) {
        int rank = card % 13 + 1, ace = card - card % 13, n = 0, below = rank - 1, above = rank + 1;
        if (self->wrap) {
            self->near[card][n++] = (unsigned char)(ace + (below ? below : KING) - 1);
            self->near[card][n++] = (unsigned char)(ace + (above <= KING ? above : ACE) - 1);
        } else {
            if (below >= ACE) self->near[card][n++] = (unsigned char)(ace + below - 1);
            if (above <= KING) self->near[card][n++] = (unsigned char)(ace + above - 1);
        }
        self->nnear[card] = n;
        while (n < 2) self->near[card][n++] = NO_CARD;  /* no neighbour: a card no table counts (dead.c reads both) */
    }
    self->nnear[NO_CARD] = 0;
    self->near[NO_CARD][0] = self->near[NO_CARD][1] = NO_CARD;
    PyObject *heapq = PyImport_ImportModule("heapq");
    if (heapq == NULL) return -1;
    Py_XSETREF(self->heappush, PyObject_GetAttrString(heapq, "heappush"));
    Py_DECREF(heapq);
    if (self->heappush == NULL) return -1;
    Py_XSETREF(self->postype, (PyTypeObject *)Py_NewRef(postype));
    Py_XSETREF(self->actions, Py_NewRef(actions));
    Py_XSETREF(self->reshuffle, Py_NewRef(resh));
    const char *texts[4] = {"won", "playing", "waiting", "lost"};
    for (int i = 0; i < 4; i++) {
        Py_XSETREF(self->status_text[i], PyUnicode_InternFromString(texts[i]));
        if (self->status_text[i] == NULL) return -1;
    }
    const char *verdicts[3] = {"winnable", "not winnable", "unknown"};
    for (int i = 0; i < 3; i++) {
        Py_XSETREF(self->verdict_text[i], PyUnicode_InternFromString(verdicts[i]));
        if (self->verdict_text[i] == NULL) return -1;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    Py_XDECREF(self->postype);
    Py_XDECREF(self->actions);
    Py_XDECREF(self->reshuffle);
    Py_XDECREF(self->heappush);
    for (int i = 0; i < 4; i++) Py_XDECREF(self->status_text[i]);
    for (int i = 0; i < 3; i++) Py_XDECREF(self->verdict_text[i]);
    for (int i = 0; i < NCACHE; i++) Py_XDECREF(self->cached[i]);
    PyMem_RawFree(self->waits);
    onesuit_free(self->onesuit);
    for (int i = 0; i < 2; i++) {
        if (self->spare[i]) table_free(self->spare[i]);
        PyMem_RawFree(self->spare[i]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "crescent_ref.solver._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled core of one profile (see crescent_ref/solver/fast.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "The solver's compiled core (crescent_ref/solver/fast.py).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Core", (PyObject *)&CoreType) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
