import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { contrastRatio } from '../../../lib/color';
import { AgentMarkdown } from './AgentMarkdown';

const FENCED = [
  'Run `npm test` first.',
  '',
  '```ts',
  'const answer: number = 42; // the answer',
  'console.log("hi");',
  '```',
].join('\n');

describe('agent replies as Markdown', () => {
  it('renders Markdown and opens links in a new tab without access to this page', async () => {
    renderWithProviders(
      <AgentMarkdown content={'**Bold** and [docs](https://example.com/docs)\n\n```\ncode()\n```'} />,
    );
    const link = await screen.findByRole('link', { name: 'docs' });
    expect(link).toHaveAttribute('href', 'https://example.com/docs');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText('Bold').tagName).toBe('STRONG');
    expect(screen.getByText('code()').closest('pre')).not.toBeNull();
  });

  it('does not render raw HTML from the reply', async () => {
    const { container } = renderWithProviders(
      <AgentMarkdown
        content={'Hi <script>window.hacked = 1</script> <img src=x onerror="alert(1)"> <b>bold</b>'}
      />,
    );
    await screen.findByText(/Hi/);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
  });

  it('drops javascript: links', async () => {
    renderWithProviders(<AgentMarkdown content={'[click](javascript:alert(1))'} />);
    const link = await screen.findByText('click');
    expect(link.getAttribute('href') ?? '').not.toMatch(/javascript/i);
  });

  it('bare URLs become links that open in a new tab', async () => {
    renderWithProviders(<AgentMarkdown content={'See https://example.com/docs?x=1 for more.'} />);
    const link = await screen.findByRole('link', { name: 'https://example.com/docs?x=1' });
    expect(link).toHaveAttribute('href', 'https://example.com/docs?x=1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('code in agent replies', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renders a fenced block as a block of its own, inline code as a chip', async () => {
    const { container } = renderWithProviders(<AgentMarkdown content={FENCED} />);
    const block = await screen.findByTestId('code-block');
    const code = block.querySelector('pre > code');
    expect(code).not.toBeNull();
    // The block's code carries no chip of its own (no inline background or padding on any line).
    expect(code?.getAttribute('style')).toBeNull();
    expect(code?.textContent).toBe('const answer: number = 42; // the answer\nconsole.log("hi");\n');
    // Inline code stays outside any block, where the chip style applies (styles.css: :not(pre) > code).
    const inline = screen.getByText('npm test');
    expect(inline.tagName).toBe('CODE');
    expect(inline.closest('pre')).toBeNull();
    expect(container.querySelectorAll('pre')).toHaveLength(1);
    // The language is named above the code; the block takes focus so the keyboard can scroll it.
    expect(within(block).getByText('ts')).toBeInTheDocument();
    expect(block.querySelector('pre')).toHaveAttribute('tabindex', '0');
  });

  it('highlights the code of a known language and leaves others plain', async () => {
    const { container } = renderWithProviders(
      <AgentMarkdown content={FENCED + '\n\n```klingon\nqapla batlh\n```'} />,
    );
    const [ts, unknown] = await screen.findAllByTestId('code-block');
    expect(ts.querySelector('code')).toHaveClass('hljs', 'language-ts');
    expect(ts.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(ts.querySelector('.hljs-comment')?.textContent).toBe('// the answer');
    expect(ts.querySelector('.hljs-string')?.textContent).toBe('"hi"');
    expect(unknown.querySelector('code')).not.toHaveClass('hljs');
    expect(unknown.querySelector('[class^="hljs-"]')).toBeNull();
    expect(container.querySelector('.sb-markdown')).not.toBeNull();
  });

  it('keeps every syntax colour readable (AA) on the code block', async () => {
    const { container } = renderWithProviders(<AgentMarkdown content={FENCED} />);
    await screen.findByTestId('code-block');
    const root = container.querySelector<HTMLElement>('.sb-markdown');
    const background = root?.style.getPropertyValue('--sb-code-bg') ?? '';
    const kinds = ['keyword', 'string', 'comment', 'number', 'title', 'builtin', 'name'];
    for (const kind of kinds) {
      const color = root?.style.getPropertyValue(`--sb-hl-${kind}`) ?? '';
      expect(contrastRatio(color, background), kind).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('copies the code (without its last newline) and says so', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<AgentMarkdown content={FENCED} />);
    const block = await screen.findByTestId('code-block');
    fireEvent.click(within(block).getByRole('button', { name: 'Copy code' }));
    // The status region is always there (empty): wait for its text, which comes once the copy resolved.
    const status = within(block).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent('Copied'));
    expect(writeText).toHaveBeenCalledWith('const answer: number = 42; // the answer\nconsole.log("hi");');
  });

  it('says when the browser refuses to copy', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: vi.fn().mockRejectedValue(new Error('no')) },
    });
    renderWithProviders(<AgentMarkdown content={FENCED} />);
    const block = await screen.findByTestId('code-block');
    fireEvent.click(within(block).getByRole('button', { name: 'Copy code' }));
    expect(await within(block).findByText('Copy failed')).toBeInTheDocument();
  });
});
