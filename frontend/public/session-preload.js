// Starts a signed-in page's first requests while the app's code is still loading (index.html loads this
// file first, async): the session check (POST /api/auth/refresh) and, once it answers, the first
// screen's data (GET /api/bootstrap). The app takes each answer once, for the first identical request it
// makes (src/api/earlyRequests.ts); the rules here (the hint cookie, the chat screen, the stored
// company, the query) are those of src/features/auth/sessionStore.ts and src/app/pageLoaders.ts.
(function () {
  'use strict';
  // Set first, whatever follows: the app waits for this script to have run before its own session
  // check (src/api/earlyRequests.ts), so the two never both refresh (each refresh rotates the token).
  var early = (window.__sbEarly = window.__sbEarly || {});
  // No hint cookie: no session to restore (the server sets it beside the HttpOnly refresh cookie).
  if (!/(?:^|;\s*)sb_signed_in=/.test(document.cookie)) return;
  var json = { Accept: 'application/json' };
  var refresh = fetch('/api/auth/refresh', { method: 'POST', headers: json, credentials: 'include' });

  var path = location.pathname;
  var chat = path === '/chat' || (path === '/' && !/[?&]redirect=/.test(location.search));
  var companyId = null;
  try {
    companyId = localStorage.getItem('currentCompanyId');
  } catch {
    // Storage can be unavailable (private mode): the first company is shown.
  }
  var query = [];
  if (companyId) query.push('companyId=' + encodeURIComponent(companyId));
  if (chat) query.push('chat=true');
  var bootstrapUrl = '/api/bootstrap' + (query.length ? '?' + query.join('&') : '');

  var bootstrap = refresh.then(function (response) {
    if (!response.ok) throw new Error('no session');
    return response
      .clone()
      .json()
      .then(function (session) {
        var headers = { Accept: 'application/json', Authorization: 'Bearer ' + session.accessToken };
        return fetch(bootstrapUrl, { headers: headers, credentials: 'include' });
      });
  });
  // Not taken (the app decided otherwise) or failed: the app asks again itself; nothing to report here.
  refresh.catch(function () {});
  bootstrap.catch(function () {});

  early['POST /api/auth/refresh'] = refresh;
  early['GET ' + bootstrapUrl] = bootstrap;
})();
