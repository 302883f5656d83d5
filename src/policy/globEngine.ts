// picomatch on its own, bundled apart (dist/globEngine.js): globs.ts loads it at the first match.
export { default as picomatch } from 'picomatch/posix';
