/* global window, document, fetch, location */
// AMP's real-time config, written out for a page without the AMP runtime: what amp-a4a does for
// an <amp-ad rtc-config> whose ad network is doubleclick, step by step, so the request that
// reaches openbid and the checks made on its answer are the ones AMP makes.
//  1. The vendor's URL template (a table entry as in AMP's callout-vendors.js) is expanded:
//     each macro (NAME or NAME(arg)) is replaced by its value, URI-encoded, empty when it has
//     none. Macros are the vendor's own (from rtc-config, only those the vendor declares) and
//     the ad network's (ATTR(...), TGT, CANONICAL_URL, HREF, TIMEOUT, ADCID, CONSENT_*, ...),
//     the latter winning.
//  2. Only secure URLs are called (https, or localhost).
//  3. AMP's fetch adds `__amp_source_origin=<the document's source origin>` to the query and
//     sends the request with `credentials: 'include'` and `Accept: application/json`.
//  4. The answer must carry `AMP-Access-Control-Allow-Source-Origin` equal to the source origin
//     (readable only if the server exposes it to CORS), and a 2xx status; the body is JSON.
//  5. All of it within rtc-config's timeoutMillis (default 1000).
(function () {
  'use strict';

  // Attributes of <amp-ad> that doubleclick lets ATTR() read.
  var ATTR_ALLOWED = ['width', 'height', 'data-slot', 'data-multi-size', 'data-multi-size-validation', 'data-override-width', 'data-override-height', 'data-amp-slot-index'];

  function expandUrl(template, bindings) {
    var names = Object.keys(bindings).sort(function (a, b) { return b.length - a.length; });
    var pattern = new RegExp('(' + names.join('|') + ')(?:\\(([^)]*)\\))?', 'g');
    return template.replace(pattern, function (_whole, name, arg) {
      var value = bindings[name];
      if (typeof value === 'function') value = value(arg);
      return value === undefined || value === null ? '' : encodeURIComponent(String(value));
    });
  }

  function addParamToUrl(url, key, value) {
    var param = encodeURIComponent(key) + '=' + encodeURIComponent(value);
    var mainAndFragment = url.split('#', 2);
    var mainAndQuery = mainAndFragment[0].split('?', 2);
    var out = mainAndQuery[0] + (mainAndQuery[1] ? '?' + mainAndQuery[1] + '&' + param : '?' + param);
    return out + (mainAndFragment[1] ? '#' + mainAndFragment[1] : '');
  }

  function isSecureUrl(url) {
    var u = new URL(url);
    return u.protocol === 'https:' || u.hostname === 'localhost' || u.hostname.endsWith('.localhost');
  }

  function withTimeout(ms, promise) {
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () { reject(new Error('timeout')); }, ms);
      promise.then(
        function (v) { clearTimeout(timer); resolve(v); },
        function (e) { clearTimeout(timer); reject(e); }
      );
    });
  }

  /**
   * Runs the RTC callouts of `element` (an <amp-ad>) against `vendors` (name → {url, macros}).
   * Resolves to one result per vendor: {callout, url, response, rtcTime} or {callout, url, error}.
   */
  function executeRtc(element, vendors) {
    var rtcConfig = JSON.parse(element.getAttribute('rtc-config'));
    var timeoutMillis = Number.parseInt(rtcConfig.timeoutMillis, 10);
    if (!(timeoutMillis >= 0 && timeoutMillis < 1000)) timeoutMillis = 1000;
    var json = JSON.parse(element.getAttribute('json') || '{}');
    var canonical = document.querySelector('link[rel=canonical]');
    var sourceOrigin = location.origin; // not served from an AMP cache: the document's own origin
    var networkMacros = {
      PAGEVIEWID: String(Math.floor(Math.random() * 1e9)),
      HREF: location.href,
      CANONICAL_URL: canonical ? canonical.href : location.href,
      TGT: JSON.stringify(json.targeting),
      ADCID: '', // no AMP client id (no cookie) on this page
      TIMEOUT: String(timeoutMillis),
      CONSENT_STRING: '',
      CONSENT_METADATA: function () { return ''; },
      ATTR: function (name) { return ATTR_ALLOWED.indexOf(String(name).toLowerCase()) >= 0 ? element.getAttribute(name) : null; },
    };
    return Promise.all(Object.keys(rtcConfig.vendors || {}).map(function (name) {
      var vendor = vendors[name.toLowerCase()];
      if (!vendor) return Promise.resolve({ callout: name, error: 'unknown vendor' });
      var vendorMacros = {};
      Object.keys(rtcConfig.vendors[name]).forEach(function (macro) {
        if (vendor.macros.indexOf(macro) >= 0) {
          var v = rtcConfig.vendors[name][macro];
          vendorMacros[macro] = typeof v === 'object' ? JSON.stringify(v) : v;
        }
      });
      var url = expandUrl(vendor.url, Object.assign(vendorMacros, networkMacros));
      if (!isSecureUrl(url)) return Promise.resolve({ callout: name, url: url, error: 'insecure url' });
      url = addParamToUrl(url, '__amp_source_origin', sourceOrigin);
      var start = Date.now();
      var call = fetch(url, { method: 'GET', credentials: 'include', headers: { Accept: 'application/json' } })
        .then(function (res) {
          var allowed = res.headers.get('AMP-Access-Control-Allow-Source-Origin');
          if (!allowed) throw new Error('Response must contain the AMP-Access-Control-Allow-Source-Origin header');
          if (allowed !== sourceOrigin) throw new Error('Returned AMP-Access-Control-Allow-Source-Origin is not equal to the current: ' + allowed + ' vs ' + sourceOrigin);
          if (!res.ok) throw new Error('HTTP error ' + res.status);
          return res.text();
        })
        .then(function (text) { return { callout: name, url: url, response: text ? JSON.parse(text) : undefined, rtcTime: Date.now() - start }; });
      return withTimeout(timeoutMillis, call).catch(function (err) { return { callout: name, url: url, error: String(err && err.message || err) }; });
    }));
  }

  window.ampRtc = { executeRtc: executeRtc, expandUrl: expandUrl };
})();
