// static/citations.js: ChatGPT's citation markers resolved to numbered
// sources, every other private-use marker taken out. Pure, run in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { citeText, citeMessage, citePieces, writeCites, hostOf, CITE_MARK } from '../static/citations.js';

const cite = (...refs) => `\ue200cite${refs.map((r) => `\ue202${r}`).join('')}\ue201`;
const metadata = {
  content_references: [
    { matched_text: cite('turn0search3'), type: 'grouped_webpages', items: [{ title: 'Paris — Wikipedia', url: 'https://en.wikipedia.org/wiki/Paris', attribution: 'Wikipedia', refs: [{ turn_index: 0, ref_type: 'search', ref_index: 3 }] }] },
    { matched_text: cite('turn0search3', 'turn0news1'), type: 'grouped_webpages', items: [{ title: 'Paris — Wikipedia', url: 'https://en.wikipedia.org/wiki/Paris' }, { title: 'City news', url: 'https://www.lemonde.fr/paris/' }] },
    { matched_text: ' ', type: 'sources_footnote', items: [] },
  ],
  search_result_groups: [
    { type: 'search_result_group', domain: 'example.org', entries: [{ type: 'search_result', url: 'https://example.org/a', title: 'Example A', ref_id: { turn_index: 1, ref_type: 'search', ref_index: 0 } }] },
  ],
};
const P = (...n) => `${CITE_MARK}c${n.join('.')}${CITE_MARK}`;

test('cite markers become placeholders numbered by first citation, one number per URL', () => {
  const r = citeText(`Paris is the capital. ${cite('turn0search3')} It has news. ${cite('turn0search3', 'turn0news1')}`, metadata);
  assert.equal(r.text, `Paris is the capital. ${P(1)} It has news. ${P(1, 2)}`);
  assert.deepEqual(r.sources, [
    { n: 1, title: 'Paris — Wikipedia', url: 'https://en.wikipedia.org/wiki/Paris', host: 'en.wikipedia.org' },
    { n: 2, title: 'City news', url: 'https://www.lemonde.fr/paris/', host: 'lemonde.fr' },
  ]);
});

test('a marker with no content reference is resolved through search_result_groups by its reference', () => {
  const r = citeText(`See this. ${cite('turn1search0')}`, metadata);
  assert.equal(r.text, `See this. ${P(1)}`);
  assert.equal(r.sources[0].title, 'Example A');
});

test('a marker whose sources are unknown, entities, image groups and block brackets leave no private-use character', () => {
  const text = `\ue203Iron came from \ue200entity\ue202["people", "Nathaniel L. Erb-Satullo", 0]\ue201.\ue204 ${cite('turn9search9')}\n\ue200image_group\ue202{"query":["iron smelting"]}\ue201\n\ue200i\ue202turn0image1\ue201\`\`\`xml\n<a/>\n\`\`\``;
  const r = citeText(text, metadata);
  assert.equal(r.text, 'Iron came from Nathaniel L. Erb-Satullo. \n\n```xml\n<a/>\n```');
  assert.deepEqual(r.sources, []);
  assert.doesNotMatch(r.text, /[\ue000-\uf8ff]/);
});

test('a marker just before a code fence leaves the fence at the start of its line', () => {
  const r = citeText(`Use this:\n${cite('turn0search3')}\`\`\`js\nconsole.log(1)\n\`\`\``, metadata);
  assert.equal(r.text, `Use this:${P(1)}\n\`\`\`js\nconsole.log(1)\n\`\`\``);
  assert.equal(citeText(`Use:\n  ${cite('turn0search3')}${cite('turn0news1')}- item`, metadata).text, `Use:${P(1)}\n  - item`);
  assert.equal(citeText(`${cite('turn0search3')}- item`, metadata).text, '- item');
  assert.equal(citeText(`a ${cite('turn0search3')}\n${cite('turn0search3')}\`\`\`js\nx\n\`\`\``, metadata).text, `a ${P(1)}\n\`\`\`js\nx\n\`\`\``, 'the same citation twice in a row shows once');
  const bare = citeText(`Use this:\n\ue200cite\ue202turn5search5\ue201\`\`\`js\nx\n\`\`\``, metadata);
  assert.equal(bare.text, 'Use this:\n```js\nx\n```');
});

test('older 【n†source】 citations are resolved in order from metadata.citations', () => {
  const meta = { citations: [
    { start_ix: 30, end_ix: 42, metadata: { title: 'Second', url: 'https://b.example/' } },
    { start_ix: 10, end_ix: 22, metadata: { title: 'First', url: 'https://a.example/' } },
  ] };
  const r = citeText('Founded 2014【0†source】 grew【1†source】.', meta);
  assert.equal(r.text, `Founded 2014${P(1)} grew${P(2)}.`);
  assert.deepEqual(r.sources.map((s) => s.title), ['First', 'Second']);
  assert.equal(citeText('A 【0†source】 without metadata stays.', {}).text, 'A 【0†source】 without metadata stays.');
});

test('text without markers is returned as it is; odd metadata never throws', () => {
  const s = 'plain **text**';
  assert.equal(citeText(s, metadata).text, s);
  for (const m of [null, undefined, 5, { content_references: 'x' }, { content_references: [null, { matched_text: cite('x'), items: [{ url: 'javascript:alert(1)' }] }] }]) {
    assert.equal(citeText(`a ${cite('x')}`, m).text, 'a ');
  }
});

test('citeMessage numbers sources across text parts and leaves the message unchanged', () => {
  const message = { role: 'assistant', content: [{ type: 'text', text: `one ${cite('turn0search3', 'turn0news1')}` }, { type: 'image', url: 'x' }, { type: 'text', text: `two ${cite('turn0search3')}` }] };
  const copy = structuredClone(message);
  const r = citeMessage(message, metadata);
  assert.deepEqual(message, copy);
  assert.equal(r.message.content[0].text, `one ${P(1, 2)}`);
  assert.equal(r.message.content[2].text, `two ${P(1)}`);
  assert.equal(r.sources.length, 2);
  const plain = { role: 'user', content: 'hi' };
  assert.equal(citeMessage(plain, metadata).message, plain);
});

test('citePieces and writeCites read the placeholders back', () => {
  assert.deepEqual(citePieces(`a ${P(1, 2)} b`), [{ text: 'a ' }, { cite: [1, 2] }, { text: ' b' }]);
  assert.deepEqual(citePieces(''), []);
  assert.equal(writeCites(`a${P(1, 2)}.`, (n) => n.map((k) => ` [${k}]`).join('')), 'a [1] [2].');
  assert.equal(hostOf('https://www.example.com/x'), 'example.com');
  assert.equal(hostOf('not a url'), '');
});

test('Claude.ai text blocks with citations are cited at their end', () => {
  const message = { role: 'assistant', content: [
    { type: 'text', text: 'Paris is the capital. ', citations: [{ uuid: 'c1', start_index: 0, end_index: 21, details: { type: 'web_search_citation', url: 'https://en.wikipedia.org/wiki/Paris', title: 'Paris' } }] },
    { type: 'text', text: 'Plain.', citations: [] },
    { type: 'text', text: 'Lyon too.', citations: [{ url: 'https://example.org/lyon', title: 'Lyon' }, { url: 'javascript:alert(1)' }] },
  ] };
  const r = citeMessage(message, null);
  assert.deepEqual(r.message.content.map((p) => p.text), [`Paris is the capital.${P(1)} `, 'Plain.', `Lyon too.${P(2)}`]);
  assert.deepEqual(r.sources.map((s) => s.title), ['Paris', 'Lyon']);
});
