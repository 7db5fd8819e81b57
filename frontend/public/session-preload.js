// Starts a page's first requests while the app's code is still loading (index.html loads this file
// first, async): the code of the screen it will show (the chat, or the sign-in form), and, signed in,
// the session check and the first screen's data, in one request (POST /api/auth/session), answered to
// the app as the two it makes: POST /api/auth/refresh and GET /api/bootstrap. The app takes each answer
// once, for the first identical request it makes (src/api/earlyRequests.ts); the rules here (the hint
// cookie, the start page, the stored company, the query) are those of src/workspace/session.ts
// and src/app/pageLoaders.ts.
(function () {
  'use strict';
  // Set first, whatever follows: the app waits for this script to have run before its own session
  // check (src/api/earlyRequests.ts), so the two never both refresh (each refresh rotates the token).
  var early = (window.__sbEarly = window.__sbEarly || {});
  // The files each start page loads beyond the app's entry, written here by the build
  // (frontend/build/startPageChunks.ts); none in development.
  var startPageFiles = /* start-page files */ {};
  // The hint cookie: the server sets it beside the HttpOnly refresh cookie. Without it, no session to restore.
  var signedIn = /(?:^|;\s*)sb_signed_in=/.test(document.cookie);
  var path = location.pathname;
  var chat = path === '/chat' || (path === '/' && !/[?&]redirect=/.test(location.search));
  var page = signedIn ? (chat ? 'chat' : null) : path === '/' || path === '/chat' ? 'sign-in' : null;
  // Their code loads beside the entry's (the app asks for it once its entry has been parsed and run, ~100 ms later).
  var preloadPage = function () {
    var files = (page && startPageFiles[page]) || [];
    for (var i = 0; i < files.length; i += 1) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = files[i];
      document.head.appendChild(link);
    }
  };
  if (!signedIn) {
    preloadPage();
    return;
  }
  var companyId = null;
  try {
    companyId = localStorage.getItem('currentCompanyId');
  } catch {
    // Storage can be unavailable (private mode): the first company is shown.
  }
  var query = [];
  if (companyId) query.push('companyId=' + encodeURIComponent(companyId));
  if (chat) query.push('chat=true');
  var search = query.length ? '?' + query.join('&') : '';
  var bootstrapUrl = '/api/bootstrap' + search;

  // One round trip for both (POST /api/auth/session): the refresh and, for the user it restores,
  // the bootstrap. Chaining the two here waited for the page's main thread, busy starting the app.
  var both = fetch('/api/auth/session' + search, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    credentials: 'include',
  });
  var answer = both.then(function (response) {
    return response.ok ? response.clone().json() : null;
  });
  var asJson = function (body) {
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  // The refresh's answer as POST /api/auth/refresh gives it: the session, or the refusal as it came.
  var refresh = answer.then(function (session) {
    if (!session) return both;
    return asJson({ accessToken: session.accessToken, expiresIn: session.expiresIn, user: session.user });
  });
  var bootstrap = answer.then(function (session) {
    if (!session) throw new Error('no session');
    if (session.bootstrap) return asJson(session.bootstrap);
    // The server could not read it: asked again, as the app would.
    var headers = { Accept: 'application/json', Authorization: 'Bearer ' + session.accessToken };
    return fetch(bootstrapUrl, { headers: headers, credentials: 'include' });
  });
  // Not taken (the app decided otherwise) or failed: the app asks again itself; nothing to report here.
  refresh.catch(function () {});
  bootstrap.catch(function () {});

  early['POST /api/auth/refresh'] = refresh;
  early['GET ' + bootstrapUrl] = bootstrap;
  preloadPage();
})();
