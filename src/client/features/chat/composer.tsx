import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { chatMessageMaxLength } from '../../../shared/chat.ts';
import { Button } from '../../components/ui/button.tsx';
import { Textarea } from '../../components/ui/input.tsx';

/** Message box: Enter sends, Shift+Enter adds a line; reports typing (and its end after 3 s idle). */
export function Composer({
  onSend,
  onTyping,
  disabled,
  label = 'Message',
  placeholder = 'Type your message…',
}: {
  onSend: (body: string) => void;
  onTyping: (typing: boolean) => void;
  disabled?: boolean;
  label?: string;
  placeholder?: string;
}) {
  const id = useId();
  const [body, setBody] = useState('');
  const idle = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(idle.current), []);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = body.trim();
    if (!text || disabled) return;
    onSend(text);
    setBody('');
    clearTimeout(idle.current);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };
  const left = chatMessageMaxLength - body.length;

  return (
    <form onSubmit={submit} className="flex items-end gap-2 border-t border-slate-200 p-3">
      <div className="flex-1">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <Textarea
          id={id}
          value={body}
          rows={2}
          maxLength={chatMessageMaxLength}
          placeholder={placeholder}
          className="min-h-0 resize-none text-sm"
          aria-describedby={left < 200 ? `${id}-left` : undefined}
          onKeyDown={onKeyDown}
          onChange={(event) => {
            setBody(event.target.value);
            onTyping(event.target.value.length > 0);
            clearTimeout(idle.current);
            idle.current = setTimeout(() => onTyping(false), 3000);
          }}
        />
        {left < 200 && (
          <p id={`${id}-left`} className="mt-1 text-xs text-slate-700">
            {left} characters left
          </p>
        )}
      </div>
      <Button type="submit" disabled={disabled || body.trim() === ''}>
        Send
      </Button>
    </form>
  );
}
