import { describe, expect, it } from 'vitest';
import { mailHtml, textToHtml } from '../../server/mail/layout';

describe('the mail layout: an HTML part made from the text part', () => {
  it('keeps paragraphs and line breaks', () => {
    expect(textToHtml('Hello Mia,\n\nYour booking is confirmed.\n\nWhat: Haircut\nWhen: Sat 21 Nov, 09:00')).toBe(
      '<p>Hello Mia,</p>\n<p>Your booking is confirmed.</p>\n<p>What: Haircut<br>\nWhen: Sat 21 Nov, 09:00</p>',
    );
  });

  it('escapes what a visitor typed: a name cannot add markup', () => {
    const html = textToHtml('Hello <img src=x onerror=alert(1)> "Bob" & \'Co\',');
    expect(html).toBe('<p>Hello &lt;img src=x onerror=alert(1)&gt; &quot;Bob&quot; &amp; &#39;Co&#39;,</p>');
    expect(html).not.toContain('<img');
  });

  it('makes links to the site clickable, and only those: a URL a visitor typed stays text', () => {
    const html = textToHtml('What: https://evil.example/phish\nManage or cancel: https://book.example.test/manage/abc?x=1&y=2.', 'https://book.example.test');
    expect(html).toContain('What: https://evil.example/phish<br>');
    expect(html).toContain('<a href="https://book.example.test/manage/abc?x=1&amp;y=2">https://book.example.test/manage/abc?x=1&amp;y=2</a>.');
    expect(html.match(/<a /g)).toHaveLength(1);
  });

  it('makes no link at all without a site origin', () => {
    expect(textToHtml('See https://book.example.test/manage/abc')).not.toContain('<a ');
  });

  it('wraps every body in one document with its charset', () => {
    const page = mailHtml('<p>Hi</p>');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<p>Hi</p>');
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
  });
});
