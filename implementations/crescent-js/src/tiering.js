// V8's tier-up, tuned for a short-lived adapter process. A protocol session is typically a few
// thousand requests over a fraction of a second: with V8's default budget most of that time goes to
// compiling functions that are then run only briefly (the corpus over stdio: 0.39 s of CPU with the
// default, 0.22 s with this one). Hot functions are still optimised, only later, so a long session
// (fuzz, perft) runs at the same speed once warm. Imported first by bin/crescent-js.js, before the
// modules it tunes are run.
import v8 from 'node:v8';

v8.setFlagsFromString('--interrupt-budget=1000000');
