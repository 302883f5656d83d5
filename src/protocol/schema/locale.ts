import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini ships without error messages ("Invalid input" for everything); classic zod loads the
// English locale by itself. The -32602 answers and log lines (errors.ts formatZodError) say what
// is wrong, so the English messages are installed once, by the first module that builds or reads
// a schema. Only English: the whole `locales` namespace would bring every language along.
z.config(en());
