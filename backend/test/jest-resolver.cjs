// file-type 21+ exports only `import`/`module-sync` entry points (no `require`), so Jest's CommonJS
// resolver cannot find it. For the ESM-only packages that jest.config.js compiles anyway, also accept the
// `import` condition; every other package resolves exactly as before.
const ESM_ONLY =
  /^(file-type|strtok3|token-types|peek-readable|uint8array-extras|@tokenizer\/[^/]+|@borewit\/[^/]+)(\/|$)/;

module.exports = (request, options) => {
  if (ESM_ONLY.test(request)) {
    const conditions = [...(options.conditions ?? ['require', 'default', 'node']), 'import'];
    return options.defaultResolver(request, { ...options, conditions });
  }
  return options.defaultResolver(request, options);
};
