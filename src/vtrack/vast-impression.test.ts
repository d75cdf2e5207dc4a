import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertImpression } from './vast-impression.js';

const URL = 'http://localhost:8000/event?t=imp&b=bid%201&a=acc&aid=auc&ts=1700000000000&bidder=appnexus&f=b';
/** The exact tag insertImpression adds: every expected output below shows where it goes. */
const TAG = '<Impression><![CDATA[' + URL + ']]></Impression>';

/** Joins lines with '\n', so a multi-line document reads as it would in a file. */
const lines = (...ls: readonly string[]): string => ls.join('\n');

const countTags = (text: string): number => text.split(TAG).length - 1;
const withoutTags = (text: string): string => text.split(TAG).join('');

interface Case {
  readonly name: string;
  readonly input: string;
  readonly expected: string;
  readonly inserted: number;
}

const cases: readonly Case[] = [
  // ---- VAST versions, InLine and Wrapper -------------------------------------------------
  {
    name: 'VAST 2.0 InLine with one Impression and an <?xml?> declaration: after that Impression',
    input: lines(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<VAST version="2.0">',
      '  <Ad id="20001">',
      '    <InLine>',
      '      <AdSystem version="1.0">Example</AdSystem>',
      '      <AdTitle>VAST 2.0 Linear</AdTitle>',
      '      <Impression><![CDATA[http://ads.example.com/imp?id=1]]></Impression>',
      '      <Creatives>',
      '        <Creative>',
      '          <Linear>',
      '            <Duration>00:00:30</Duration>',
      '            <MediaFiles>',
      '              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[http://cdn.example.com/ad.mp4]]></MediaFile>',
      '            </MediaFiles>',
      '          </Linear>',
      '        </Creative>',
      '      </Creatives>',
      '    </InLine>',
      '  </Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<VAST version="2.0">',
      '  <Ad id="20001">',
      '    <InLine>',
      '      <AdSystem version="1.0">Example</AdSystem>',
      '      <AdTitle>VAST 2.0 Linear</AdTitle>',
      '      <Impression><![CDATA[http://ads.example.com/imp?id=1]]></Impression>' + TAG,
      '      <Creatives>',
      '        <Creative>',
      '          <Linear>',
      '            <Duration>00:00:30</Duration>',
      '            <MediaFiles>',
      '              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[http://cdn.example.com/ad.mp4]]></MediaFile>',
      '            </MediaFiles>',
      '          </Linear>',
      '        </Creative>',
      '      </Creatives>',
      '    </InLine>',
      '  </Ad>',
      '</VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'VAST 3.0 Wrapper with one Impression: after that Impression',
    input: lines(
      '<VAST version="3.0">',
      '  <Ad id="30001">',
      '    <Wrapper>',
      '      <AdSystem>Wrapper Co</AdSystem>',
      '      <VASTAdTagURI><![CDATA[http://next.example.com/vast.xml]]></VASTAdTagURI>',
      '      <Impression><![CDATA[http://wrapper.example.com/imp]]></Impression>',
      '      <Error><![CDATA[http://wrapper.example.com/err?code=[ERRORCODE]]]></Error>',
      '      <Creatives>',
      '        <Creative><Linear><TrackingEvents>',
      '          <Tracking event="start"><![CDATA[http://wrapper.example.com/start]]></Tracking>',
      '        </TrackingEvents></Linear></Creative>',
      '      </Creatives>',
      '    </Wrapper>',
      '  </Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<VAST version="3.0">',
      '  <Ad id="30001">',
      '    <Wrapper>',
      '      <AdSystem>Wrapper Co</AdSystem>',
      '      <VASTAdTagURI><![CDATA[http://next.example.com/vast.xml]]></VASTAdTagURI>',
      '      <Impression><![CDATA[http://wrapper.example.com/imp]]></Impression>' + TAG,
      '      <Error><![CDATA[http://wrapper.example.com/err?code=[ERRORCODE]]]></Error>',
      '      <Creatives>',
      '        <Creative><Linear><TrackingEvents>',
      '          <Tracking event="start"><![CDATA[http://wrapper.example.com/start]]></Tracking>',
      '        </TrackingEvents></Linear></Creative>',
      '      </Creatives>',
      '    </Wrapper>',
      '  </Ad>',
      '</VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'VAST 4.2 InLine with several Impressions (not all adjacent): after the last one',
    input: lines(
      '<VAST version="4.2" xmlns="http://www.iab.com/VAST">',
      '  <Ad id="42001" adType="video">',
      '    <InLine>',
      '      <AdSystem>Example</AdSystem>',
      '      <Impression id="a"><![CDATA[http://one.example.com/imp]]></Impression>',
      '      <Impression id="b"><![CDATA[http://two.example.com/imp]]></Impression>',
      '      <AdServingId>abc-123</AdServingId>',
      '      <Impression id="c"><![CDATA[http://three.example.com/imp]]></Impression>',
      '      <AdTitle>VAST 4.2</AdTitle>',
      '    </InLine>',
      '  </Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<VAST version="4.2" xmlns="http://www.iab.com/VAST">',
      '  <Ad id="42001" adType="video">',
      '    <InLine>',
      '      <AdSystem>Example</AdSystem>',
      '      <Impression id="a"><![CDATA[http://one.example.com/imp]]></Impression>',
      '      <Impression id="b"><![CDATA[http://two.example.com/imp]]></Impression>',
      '      <AdServingId>abc-123</AdServingId>',
      '      <Impression id="c"><![CDATA[http://three.example.com/imp]]></Impression>' + TAG,
      '      <AdTitle>VAST 4.2</AdTitle>',
      '    </InLine>',
      '  </Ad>',
      '</VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'InLine without any Impression: right before </InLine>',
    input: lines(
      '<VAST version="4.0">',
      '  <Ad>',
      '    <InLine>',
      '      <AdSystem>Example</AdSystem>',
      '      <AdTitle>No pixel</AdTitle>',
      '    </InLine>',
      '  </Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<VAST version="4.0">',
      '  <Ad>',
      '    <InLine>',
      '      <AdSystem>Example</AdSystem>',
      '      <AdTitle>No pixel</AdTitle>',
      '    ' + TAG + '</InLine>',
      '  </Ad>',
      '</VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'Wrapper without any Impression: right before </Wrapper>',
    input: lines(
      '<VAST version="3.0">',
      '  <Ad>',
      '    <Wrapper>',
      '      <AdSystem>Wrapper Co</AdSystem>',
      '      <VASTAdTagURI>http://next.example.com/vast.xml</VASTAdTagURI>',
      '    </Wrapper>',
      '  </Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<VAST version="3.0">',
      '  <Ad>',
      '    <Wrapper>',
      '      <AdSystem>Wrapper Co</AdSystem>',
      '      <VASTAdTagURI>http://next.example.com/vast.xml</VASTAdTagURI>',
      '    ' + TAG + '</Wrapper>',
      '  </Ad>',
      '</VAST>',
    ),
    inserted: 1,
  },

  // ---- case of tag names ---------------------------------------------------------------
  {
    name: 'lower-case tag names (<inline>, <impression>)',
    input: '<vast version="2.0"><ad><inline><adsystem>x</adsystem><impression>http://a.example/i</impression><creatives/></inline></ad></vast>',
    expected:
      '<vast version="2.0"><ad><inline><adsystem>x</adsystem><impression>http://a.example/i</impression>' +
      TAG +
      '<creatives/></inline></ad></vast>',
    inserted: 1,
  },
  {
    name: 'upper-case tag names (<INLINE>, <IMPRESSION>)',
    input: '<VAST VERSION="2.0"><AD><INLINE><IMPRESSION>http://a.example/i</IMPRESSION><CREATIVES/></INLINE></AD></VAST>',
    expected: '<VAST VERSION="2.0"><AD><INLINE><IMPRESSION>http://a.example/i</IMPRESSION>' + TAG + '<CREATIVES/></INLINE></AD></VAST>',
    inserted: 1,
  },
  {
    name: 'mixed-case Wrapper without Impression, closed by </WRAPPER>',
    input: '<VAST version="3.0"><Ad><wRaPpEr><VASTAdTagURI>http://next.example/v</VASTAdTagURI></WRAPPER></Ad></VAST>',
    expected: '<VAST version="3.0"><Ad><wRaPpEr><VASTAdTagURI>http://next.example/v</VASTAdTagURI>' + TAG + '</WRAPPER></Ad></VAST>',
    inserted: 1,
  },

  // ---- attributes ----------------------------------------------------------------------
  {
    name: 'InLine open tag with attributes and whitespace (a quoted value containing >)',
    input: lines(
      '<VAST version="4.1"><Ad>',
      `<InLine id="a>b"  data-x='1>2'\n  >`,
      '<Impression>http://a.example/i</Impression>',
      '</InLine></Ad></VAST>',
    ),
    expected: lines(
      '<VAST version="4.1"><Ad>',
      `<InLine id="a>b"  data-x='1>2'\n  >`,
      '<Impression>http://a.example/i</Impression>' + TAG,
      '</InLine></Ad></VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'Wrapper with VAST 4 attributes and no Impression: before </Wrapper>',
    input:
      '<VAST version="4.1"><Ad><Wrapper followAdditionalWrappers="true" allowMultipleAds=\'false\' fallbackOnNoAd="true">' +
      '<VASTAdTagURI>http://next.example/v</VASTAdTagURI></Wrapper></Ad></VAST>',
    expected:
      '<VAST version="4.1"><Ad><Wrapper followAdditionalWrappers="true" allowMultipleAds=\'false\' fallbackOnNoAd="true">' +
      '<VASTAdTagURI>http://next.example/v</VASTAdTagURI>' +
      TAG +
      '</Wrapper></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'Impressions with attributes whose quoted values contain >: after the last, both untouched',
    input: `<VAST><Ad><InLine><Impression id="a>b"><![CDATA[http://a.example/i]]></Impression><Impression id='c>d' >http://b.example/i</Impression><AdTitle>t</AdTitle></InLine></Ad></VAST>`,
    expected:
      `<VAST><Ad><InLine><Impression id="a>b"><![CDATA[http://a.example/i]]></Impression><Impression id='c>d' >http://b.example/i</Impression>` +
      TAG +
      '<AdTitle>t</AdTitle></InLine></Ad></VAST>',
    inserted: 1,
  },

  // ---- shapes of the existing Impression ------------------------------------------------
  {
    name: 'empty <Impression></Impression> as the last one: after it, left as is',
    input: '<VAST version="3.0"><Ad><InLine><Impression>http://a.example/i</Impression><Impression></Impression><Creatives/></InLine></Ad></VAST>',
    expected:
      '<VAST version="3.0"><Ad><InLine><Impression>http://a.example/i</Impression><Impression></Impression>' +
      TAG +
      '<Creatives/></InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'self-closing <Impression/> as the last one: after its />',
    input: '<VAST version="3.0"><Ad><InLine><Impression><![CDATA[http://a.example/i]]></Impression><Impression/><Creatives/></InLine></Ad></VAST>',
    expected:
      '<VAST version="3.0"><Ad><InLine><Impression><![CDATA[http://a.example/i]]></Impression><Impression/>' +
      TAG +
      '<Creatives/></InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'self-closing <Impression id="x" /> with attributes and a space, in a Wrapper',
    input: '<VAST version="4.0"><Ad><Wrapper><VASTAdTagURI>http://n.example/v</VASTAdTagURI><Impression id="x" /><Creatives/></Wrapper></Ad></VAST>',
    expected:
      '<VAST version="4.0"><Ad><Wrapper><VASTAdTagURI>http://n.example/v</VASTAdTagURI><Impression id="x" />' +
      TAG +
      '<Creatives/></Wrapper></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'closing tag with whitespace </Impression >: after the >',
    input: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression >\n<Creatives/></InLine></Ad></VAST>',
    expected: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression >' + TAG + '\n<Creatives/></InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'closing tag with whitespace </InLine > and no Impression: before it',
    input: '<VAST><Ad><InLine><AdTitle>t</AdTitle>\n</InLine >\n</Ad></VAST>',
    expected: '<VAST><Ad><InLine><AdTitle>t</AdTitle>\n' + TAG + '</InLine >\n</Ad></VAST>',
    inserted: 1,
  },

  // ---- direct children only -------------------------------------------------------------
  {
    name: 'Impression only inside <Extensions> (not a direct child): before </InLine>',
    input: lines(
      '<VAST version="3.0"><Ad><InLine>',
      '  <AdTitle>t</AdTitle>',
      '  <Extensions><Extension type="x"><Impression>http://nested.example/i</Impression></Extension></Extensions>',
      '</InLine></Ad></VAST>',
    ),
    expected: lines(
      '<VAST version="3.0"><Ad><InLine>',
      '  <AdTitle>t</AdTitle>',
      '  <Extensions><Extension type="x"><Impression>http://nested.example/i</Impression></Extension></Extensions>',
      TAG + '</InLine></Ad></VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'Wrapper with an Impression only inside <Extensions>: before </Wrapper>',
    input:
      '<VAST version="4.0"><Ad><Wrapper><VASTAdTagURI>http://n.example/v</VASTAdTagURI>' +
      '<Extensions><Extension><Impression/></Extension></Extensions></Wrapper></Ad></VAST>',
    expected:
      '<VAST version="4.0"><Ad><Wrapper><VASTAdTagURI>http://n.example/v</VASTAdTagURI>' +
      '<Extensions><Extension><Impression/></Extension></Extensions>' +
      TAG +
      '</Wrapper></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'direct Impression followed by one nested in <Extensions>: after the direct one',
    input: lines(
      '<VAST version="3.0"><Ad><InLine>',
      '  <Impression>http://direct.example/i</Impression>',
      '  <Creatives/>',
      '  <Extensions><Extension><Impression>http://nested.example/i</Impression></Extension></Extensions>',
      '</InLine></Ad></VAST>',
    ),
    expected: lines(
      '<VAST version="3.0"><Ad><InLine>',
      '  <Impression>http://direct.example/i</Impression>' + TAG,
      '  <Creatives/>',
      '  <Extensions><Extension><Impression>http://nested.example/i</Impression></Extension></Extensions>',
      '</InLine></Ad></VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'Impression nested in <Extensions> before a direct one: after the direct one',
    input:
      '<VAST><Ad><InLine><Extensions><Extension><Impression>http://nested.example/i</Impression></Extension></Extensions>' +
      '<Impression>http://direct.example/i</Impression><AdTitle>t</AdTitle></InLine></Ad></VAST>',
    expected:
      '<VAST><Ad><InLine><Extensions><Extension><Impression>http://nested.example/i</Impression></Extension></Extensions>' +
      '<Impression>http://direct.example/i</Impression>' +
      TAG +
      '<AdTitle>t</AdTitle></InLine></Ad></VAST>',
    inserted: 1,
  },

  // ---- comments, CDATA, processing instructions, DOCTYPE ---------------------------------
  {
    name: '</Impression> inside a comment after the last Impression is ignored',
    input: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression><!-- <Impression>old</Impression> --><Creatives/></InLine></Ad></VAST>',
    expected:
      '<VAST><Ad><InLine><Impression>http://a.example/i</Impression>' +
      TAG +
      '<!-- <Impression>old</Impression> --><Creatives/></InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: '</InLine> inside a comment is ignored: before the real </InLine>',
    input: '<VAST><Ad><InLine><AdTitle>t</AdTitle><!-- end of </InLine> here? no --><Creatives/></InLine></Ad></VAST>',
    expected: '<VAST><Ad><InLine><AdTitle>t</AdTitle><!-- end of </InLine> here? no --><Creatives/>' + TAG + '</InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: '</Impression> and </InLine> inside <AdParameters> CDATA are ignored',
    input: lines(
      '<VAST version="3.0"><Ad><InLine>',
      '  <Impression>http://a.example/i</Impression>',
      '  <Creatives><Creative><Linear>',
      '    <AdParameters><![CDATA[<Impression>http://x/</Impression></InLine><Wrapper>]]></AdParameters>',
      '  </Linear></Creative></Creatives>',
      '</InLine></Ad></VAST>',
    ),
    expected: lines(
      '<VAST version="3.0"><Ad><InLine>',
      '  <Impression>http://a.example/i</Impression>' + TAG,
      '  <Creatives><Creative><Linear>',
      '    <AdParameters><![CDATA[<Impression>http://x/</Impression></InLine><Wrapper>]]></AdParameters>',
      '  </Linear></Creative></Creatives>',
      '</InLine></Ad></VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'Impression-like text in a CDATA section, no real Impression: before </InLine>',
    input: '<VAST><Ad><InLine><Description><![CDATA[<Impression/> and </InLine>]]></Description></InLine></Ad></VAST>',
    expected: '<VAST><Ad><InLine><Description><![CDATA[<Impression/> and </InLine>]]></Description>' + TAG + '</InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'an Impression whose CDATA contains </Impression>: after the real closing tag',
    input: '<VAST><Ad><InLine><Impression><![CDATA[http://a.example/i?x=</Impression>]]></Impression><Creatives/></InLine></Ad></VAST>',
    expected:
      '<VAST><Ad><InLine><Impression><![CDATA[http://a.example/i?x=</Impression>]]></Impression>' +
      TAG +
      '<Creatives/></InLine></Ad></VAST>',
    inserted: 1,
  },
  {
    name: 'processing instruction and <!DOCTYPE> are not markup',
    input: lines(
      '<?xml version="1.0"?>',
      '<!DOCTYPE VAST SYSTEM "vast.dtd">',
      '<VAST><Ad><InLine><?pi </InLine> <Impression/> ?><AdTitle>t</AdTitle></InLine></Ad></VAST>',
    ),
    expected: lines(
      '<?xml version="1.0"?>',
      '<!DOCTYPE VAST SYSTEM "vast.dtd">',
      '<VAST><Ad><InLine><?pi </InLine> <Impression/> ?><AdTitle>t</AdTitle>' + TAG + '</InLine></Ad></VAST>',
    ),
    inserted: 1,
  },
  {
    name: 'InLine and Wrapper only inside a comment and a DOCTYPE: unchanged',
    input: '<!DOCTYPE VAST [ <!ENTITY x "<InLine></InLine>"> ]>\n<VAST version="2.0"><!-- <Ad><InLine></InLine></Ad> <Wrapper></Wrapper> --></VAST>',
    expected: '<!DOCTYPE VAST [ <!ENTITY x "<InLine></InLine>"> ]>\n<VAST version="2.0"><!-- <Ad><InLine></InLine></Ad> <Wrapper></Wrapper> --></VAST>',
    inserted: 0,
  },

  // ---- several Ads ----------------------------------------------------------------------
  {
    name: 'two Ads with two InLines (VAST 3 pod): both get the tag',
    input: lines(
      '<VAST version="3.0">',
      '  <Ad id="1" sequence="1"><InLine><AdSystem>A</AdSystem><Impression>http://a.example/i</Impression><Creatives/></InLine></Ad>',
      '  <Ad id="2" sequence="2"><InLine><AdSystem>B</AdSystem><Impression>http://b.example/i</Impression><Creatives/></InLine></Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<VAST version="3.0">',
      '  <Ad id="1" sequence="1"><InLine><AdSystem>A</AdSystem><Impression>http://a.example/i</Impression>' + TAG + '<Creatives/></InLine></Ad>',
      '  <Ad id="2" sequence="2"><InLine><AdSystem>B</AdSystem><Impression>http://b.example/i</Impression>' + TAG + '<Creatives/></InLine></Ad>',
      '</VAST>',
    ),
    inserted: 2,
  },
  {
    name: 'an InLine with an Impression and a Wrapper without: both get the tag',
    input: lines(
      '<VAST version="4.0">',
      '  <Ad id="1"><InLine><Impression id="i1">http://a.example/i</Impression><Creatives/></InLine></Ad>',
      '  <Ad id="2"><Wrapper><VASTAdTagURI>http://n.example/v</VASTAdTagURI></Wrapper></Ad>',
      '</VAST>',
    ),
    expected: lines(
      '<VAST version="4.0">',
      '  <Ad id="1"><InLine><Impression id="i1">http://a.example/i</Impression>' + TAG + '<Creatives/></InLine></Ad>',
      '  <Ad id="2"><Wrapper><VASTAdTagURI>http://n.example/v</VASTAdTagURI>' + TAG + '</Wrapper></Ad>',
      '</VAST>',
    ),
    inserted: 2,
  },
  {
    name: 'three Ads with differently cased containers: all three get the tag',
    input:
      '<VAST version="4.2"><Ad><Wrapper><Impression/></Wrapper></Ad><Ad><inline><adtitle>b</adtitle></inline></Ad>' +
      '<Ad><INLINE><IMPRESSION>x</IMPRESSION><IMPRESSION>y</IMPRESSION></INLINE></Ad></VAST>',
    expected:
      '<VAST version="4.2"><Ad><Wrapper><Impression/>' +
      TAG +
      '</Wrapper></Ad><Ad><inline><adtitle>b</adtitle>' +
      TAG +
      '</inline></Ad>' +
      '<Ad><INLINE><IMPRESSION>x</IMPRESSION><IMPRESSION>y</IMPRESSION>' +
      TAG +
      '</INLINE></Ad></VAST>',
    inserted: 3,
  },

  // ---- nothing to modify ---------------------------------------------------------------
  { name: 'self-closing <VAST version="4.0"/>: unchanged', input: '<VAST version="4.0"/>', expected: '<VAST version="4.0"/>', inserted: 0 },
  {
    name: 'VAST without Ads (only an <Error>): unchanged',
    input: '<?xml version="1.0" encoding="UTF-8"?>\n<VAST version="4.1">\n  <Error><![CDATA[http://e.example/err]]></Error>\n</VAST>\n',
    expected: '<?xml version="1.0" encoding="UTF-8"?>\n<VAST version="4.1">\n  <Error><![CDATA[http://e.example/err]]></Error>\n</VAST>\n',
    inserted: 0,
  },
  { name: 'empty string: unchanged', input: '', expected: '', inserted: 0 },
  {
    name: 'plain text mentioning InLine: unchanged',
    input: 'not a VAST document: InLine, Wrapper, Impression',
    expected: 'not a VAST document: InLine, Wrapper, Impression',
    inserted: 0,
  },
  {
    name: 'JSON: unchanged',
    input: '{"id":"bid 1","price":1.5,"adm":"<VAST version=\\"4.0\\"/>","ext":{"type":"InLine"}}',
    expected: '{"id":"bid 1","price":1.5,"adm":"<VAST version=\\"4.0\\"/>","ext":{"type":"InLine"}}',
    inserted: 0,
  },

  // ---- malformed / truncated -------------------------------------------------------------
  {
    name: 'truncated document, </InLine> missing: unchanged',
    input: '<VAST version="3.0"><Ad><InLine><AdSystem>x</AdSystem><Impression>http://a.example/i</Impression><Creatives><Creative>',
    expected: '<VAST version="3.0"><Ad><InLine><AdSystem>x</AdSystem><Impression>http://a.example/i</Impression><Creatives><Creative>',
    inserted: 0,
  },
  {
    name: 'second Ad truncated: only the well-formed first InLine gets the tag',
    input:
      '<VAST version="3.0"><Ad><InLine><Impression>http://a.example/i</Impression></InLine></Ad>' +
      '<Ad><InLine><Impression>http://b.example/i</Impression><Creat',
    expected:
      '<VAST version="3.0"><Ad><InLine><Impression>http://a.example/i</Impression>' +
      TAG +
      '</InLine></Ad>' +
      '<Ad><InLine><Impression>http://b.example/i</Impression><Creat',
    inserted: 1,
  },
  {
    name: 'unclosed comment hiding </InLine>: the container is not closed, unchanged',
    input: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression><!-- note </InLine></Ad></VAST>',
    expected: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression><!-- note </InLine></Ad></VAST>',
    inserted: 0,
  },
  {
    name: 'unclosed comment after a well-formed Ad: that Ad still gets the tag',
    input: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression></InLine></Ad></VAST>\n<!-- trailing <InLine>',
    expected: '<VAST><Ad><InLine><Impression>http://a.example/i</Impression>' + TAG + '</InLine></Ad></VAST>\n<!-- trailing <InLine>',
    inserted: 1,
  },
  {
    name: 'random text with stray < and >: unchanged',
    input: 'a < b && c > d; <<>> </ <! <? ]]> --> "<InLine"',
    expected: 'a < b && c > d; <<>> </ <! <? ]]> --> "<InLine"',
    inserted: 0,
  },

  // ---- names sharing a prefix ------------------------------------------------------------
  {
    name: '<ImpressionTracking> is not an Impression (after the real one / before </InLine>)',
    input: lines(
      '<VAST><Ad><InLine><Impression>http://a.example/i</Impression><ImpressionTracking>http://t.example/</ImpressionTracking></InLine></Ad>',
      '<Ad><InLine><ImpressionTracking>http://t.example/</ImpressionTracking><Impressions/></InLine></Ad></VAST>',
    ),
    expected: lines(
      '<VAST><Ad><InLine><Impression>http://a.example/i</Impression>' + TAG + '<ImpressionTracking>http://t.example/</ImpressionTracking></InLine></Ad>',
      '<Ad><InLine><ImpressionTracking>http://t.example/</ImpressionTracking><Impressions/>' + TAG + '</InLine></Ad></VAST>',
    ),
    inserted: 2,
  },
  {
    name: '<InLineExtension> and <WrapperData> are not containers: unchanged',
    input: '<VAST><Ad><InLineExtension><Impression>http://a.example/i</Impression></InLineExtension><WrapperData><Impression/></WrapperData></Ad></VAST>',
    expected: '<VAST><Ad><InLineExtension><Impression>http://a.example/i</Impression></InLineExtension><WrapperData><Impression/></WrapperData></Ad></VAST>',
    inserted: 0,
  },
  {
    name: 'InLine ending with </InLineExtension>: before the real </InLine>',
    input: '<VAST><Ad><InLine><AdTitle>t</AdTitle><InLineExtension>x</InLineExtension></InLine></Ad></VAST>',
    expected: '<VAST><Ad><InLine><AdTitle>t</AdTitle><InLineExtension>x</InLineExtension>' + TAG + '</InLine></Ad></VAST>',
    inserted: 1,
  },

  // ---- whitespace and non-ASCII text ------------------------------------------------------
  {
    name: 'CRLF line endings and tabs are preserved',
    input: '<VAST version="3.0">\r\n\t<Ad>\r\n\t\t<InLine>\r\n\t\t\t<Impression>\r\n\t\t\t\thttp://a.example/i\r\n\t\t\t</Impression>\r\n\t\t\t<Creatives/>\r\n\t\t</InLine>\r\n\t</Ad>\r\n</VAST>\r\n',
    expected:
      '<VAST version="3.0">\r\n\t<Ad>\r\n\t\t<InLine>\r\n\t\t\t<Impression>\r\n\t\t\t\thttp://a.example/i\r\n\t\t\t</Impression>' +
      TAG +
      '\r\n\t\t\t<Creatives/>\r\n\t\t</InLine>\r\n\t</Ad>\r\n</VAST>\r\n',
    inserted: 1,
  },
  {
    name: 'non-ASCII text before and after the insertion point',
    input: lines(
      '<VAST version="4.0"><Ad><InLine>',
      '  <AdTitle>Café ☕ 🎬</AdTitle>',
      '  <Impression><![CDATA[http://a.example/i?q=été]]></Impression>',
      '  <Description>日本語 — ünïcödé 🎉</Description>',
      '</InLine></Ad></VAST>',
    ),
    expected: lines(
      '<VAST version="4.0"><Ad><InLine>',
      '  <AdTitle>Café ☕ 🎬</AdTitle>',
      '  <Impression><![CDATA[http://a.example/i?q=été]]></Impression>' + TAG,
      '  <Description>日本語 — ünïcödé 🎉</Description>',
      '</InLine></Ad></VAST>',
    ),
    inserted: 1,
  },
];

describe('insertImpression', () => {
  describe('table', () => {
    for (const c of cases) {
      it(c.name, () => {
        const result = insertImpression(c.input, URL);
        assert.equal(result.vast, c.expected);
        assert.equal(result.inserted, c.inserted);
      });
    }
  });

  describe('changes nothing but the inserted tags', () => {
    for (const c of cases) {
      it(c.name, () => {
        // The table itself: the expected output is the input plus `inserted` tags.
        assert.equal(countTags(c.expected), c.inserted, 'table: tag count in expected');
        assert.equal(withoutTags(c.expected), c.input, 'table: expected minus tags');
        // The function's output obeys the same rule.
        const { vast, inserted } = insertImpression(c.input, URL);
        assert.equal(countTags(vast), inserted);
        assert.equal(withoutTags(vast), c.input);
      });
    }
  });

  it('handles a 200 KB VAST with 1000 Impressions, inserting once after the last', { timeout: 10_000 }, () => {
    const impressions = Array.from(
      { length: 1000 },
      (_, i) => `    <Impression id="imp-${i}"><![CDATA[http://imp.example.com/pixel?n=${i}&pad=${'x'.repeat(150)}]]></Impression>`,
    );
    const head = '<VAST version="4.2">\n  <Ad id="big">\n  <InLine>\n    <AdSystem>big</AdSystem>\n';
    const tail = '\n    <Creatives/>\n  </InLine>\n  </Ad>\n</VAST>\n';
    const input = head + impressions.join('\n') + tail;
    assert.ok(input.length >= 200_000, `input is ${input.length} chars`);

    const { vast, inserted } = insertImpression(input, URL);
    assert.equal(inserted, 1);
    assert.equal(vast, head + impressions.join('\n') + TAG + tail);
  });

  it('never throws on pathological input, and changes nothing but inserted tags', () => {
    const inputs = [
      '<',
      '>',
      '</',
      '<!',
      '<?',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '<!DOCTYPE',
      '<?xml',
      '<InLine',
      '<InLine>',
      '</InLine>',
      '<Wrapper/>',
      '<InLine id="',
      "<InLine id='>",
      '<InLine></InLine',
      '<InLine><Impression',
      '<InLine><Impression id="a></InLine>',
      '<InLine><Impression></InLine>',
      '<InLine><!--</InLine>',
      '<InLine><![CDATA[</InLine>',
      '<InLine><?</InLine>',
      '</Impression><Impression/></InLine><InLine>',
      '<InLine><InLine></InLine></InLine>',
      '\u0000<InLine>\uFFFF</InLine>',
      '\uD800<InLine>\uDC00</InLine>',
      '<'.repeat(10_000),
      '<InLine>'.repeat(2_000),
    ];
    for (const input of inputs) {
      const label = JSON.stringify(input.slice(0, 60));
      let result: ReturnType<typeof insertImpression>;
      try {
        result = insertImpression(input, URL);
      } catch (err) {
        assert.fail(`threw on ${label}: ${String(err)}`);
      }
      assert.equal(typeof result.vast, 'string', label);
      assert.ok(Number.isInteger(result.inserted) && result.inserted >= 0, label);
      assert.equal(countTags(result.vast), result.inserted, label);
      assert.equal(withoutTags(result.vast), input, label);
    }
  });

  it('leaves tag-only fragments without a closed container unchanged', () => {
    for (const input of ['<', '<!--', '<![CDATA[', '<InLine', '<InLine>', '</InLine>', '<Wrapper><Impression/>', '<InLine><!--</InLine>']) {
      const { vast, inserted } = insertImpression(input, URL);
      assert.equal(vast, input, JSON.stringify(input));
      assert.equal(inserted, 0, JSON.stringify(input));
    }
  });

  it('starts every scan afresh, whatever the scan before it left open', () => {
    const simple = '<VAST><Ad><InLine><Impression>a</Impression></InLine></Ad></VAST>';
    const expected = `<VAST><Ad><InLine><Impression>a</Impression>${TAG}</InLine></Ad></VAST>`;
    const leftOpen = ['<Wrapper>', '<VAST><Ad><InLine><Impression>' + '<x>'.repeat(500), '<Wrapper>' + '<x>'.repeat(5000), '<Wrapper><Impression>', '<inline><IMPRESSION><b><c>'];
    for (const before of leftOpen) {
      assert.equal(insertImpression(before, URL).inserted, 0);
      assert.deepEqual(insertImpression(simple, URL), { vast: expected, inserted: 1 }, `after ${before.slice(0, 40)}`);
      insertImpression(before, URL);
      // A Wrapper left open at the same offsets would match this closing tag.
      const closingOnly = '<Wrapper/></Impression></Wrapper></InLine>';
      assert.deepEqual(insertImpression(closingOnly, URL), { vast: closingOnly, inserted: 0 }, `closings after ${before.slice(0, 40)}`);
    }
  });
});
