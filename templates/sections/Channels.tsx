import { ChatIcon, EmailIcon, PhoneIcon } from '../Icons.js';
import type { ContactChannel } from '../view-model.js';

export function Channels({ channels }: { channels: ContactChannel[] }) {
  return (
    <ul className="channel-grid">
      {channels.map((channel) => (
        <li className="card channel" key={channel.title}>
          <span className="card-icon" aria-hidden="true">
            {{ chat: <ChatIcon />, email: <EmailIcon />, phone: <PhoneIcon /> }[channel.icon]}
          </span>
          <h3>{channel.title}</h3>
          <p>{channel.desc}</p>
          <p className="channel-contact">
            <a href={channel.href}>{channel.contact}</a>
          </p>
        </li>
      ))}
    </ul>
  );
}
