/**
 * The built-in demo agent behind 'default-agent' when DEFAULT_AGENT_WEBHOOK is unset, so a fresh install
 * answers out of the box. It speaks the same protocol as any webhook agent (`{message}` →
 * `[{"output": "..."}]`) and is also served at /api/demo-agent/webhook for the webhook tester.
 */
export const DEMO_AGENT_PATH = '/api/demo-agent/webhook';

const PROMPT_REPLIES: Array<[RegExp, string]> = [
  [
    /\b(hi|hello|hey|good (morning|afternoon|evening))\b/i,
    "Hello! I'm the Switchboard demo agent. Ask me anything, or connect your own automation webhook in **Settings → Agents**.",
  ],
  [
    /talk to|lonely|someone to talk/i,
    "I'm here and listening. What's on your mind? Take your time — there's no rush.",
  ],
  [
    /challenge|problem|stuck|difficult/i,
    'Challenges are easier in small pieces. Could you tell me:\n\n1. What you are trying to achieve\n2. What is in the way\n3. What you have tried so far',
  ],
  [
    /goal|plan|achieve/i,
    "Great — let's make it concrete. A good goal is **specific**, **measurable** and has a **date**. What is yours, and when would you like to reach it?",
  ],
  [/happy|moment|grateful|joy/i, 'That sounds lovely! What made that moment special for you?'],
  [
    /\bhelp\b|what can you do/i,
    'I am a demo. Real agents are automation webhooks (n8n, Make, your own server): Switchboard POSTs `{"message": "..."}` and shows the `output` of the first item of the JSON array they answer.',
  ],
];

export function demoAgentReply(message: string): string {
  const text = message.trim();
  for (const [pattern, reply] of PROMPT_REPLIES) if (pattern.test(text)) return reply;
  const quoted = text.length > 300 ? `${text.slice(0, 300)}…` : text;
  return `You said:\n\n> ${quoted.replace(/\n/g, '\n> ')}\n\nI'm the built-in demo agent, so I can only echo. Point this agent at your own webhook to get real answers.`;
}

export function demoAgentResponse(message: string): Array<{ output: string }> {
  return [{ output: demoAgentReply(message) }];
}
