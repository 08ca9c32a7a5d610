"""A minimal HTTP/1.1 client on asyncio streams, for benchmarks simulating hundreds of phones.

One ``Connection`` is one phone's keep-alive connection: requests go one at a time (a lock), the
answer is read whole (``Content-Length`` or chunked), a request on a kept-alive socket the server
closed meanwhile is sent once more on a new one (an add carries its ``seq``: it counts once), and
any other failure closes the socket and raises ``OSError`` (the caller retries, as the page does).
It costs a few tens of microseconds of Python per request, where a general client with a pool of
500 connections measured about 10 ms: 500 simulated students fit on a shared machine.
"""

import asyncio
import json
from urllib.parse import urlencode, urlsplit


class Connection:
    def __init__(self, url: str, headers: dict[str, str] | None = None, timeout: float = 10.0) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.base = parts.path.rstrip("/")
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self._head = f"Host: {self.host}:{self.port}\r\n{extra}"
        self.timeout = timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    async def get(self, path: str, params: dict | None = None) -> tuple[int, bytes]:
        query = ("?" + urlencode(params)) if params else ""
        return await self.request("GET", path + query)

    async def post(self, path: str, body: dict) -> tuple[int, bytes]:
        return await self.request("POST", path, json.dumps(body).encode())

    async def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        async with self._lock:
            reused = self._writer is not None
            try:
                return await asyncio.wait_for(self._exchange(method, path, body), self.timeout)
            except EOFError:
                self.close()  # a kept-alive connection the server closed meanwhile: once more, anew
                if not reused:
                    raise OSError(f"{method} {path}: closed by the server") from None
            except (TimeoutError, OSError, ValueError, asyncio.IncompleteReadError) as err:
                self.close()
                raise OSError(f"{method} {path}: {err!r}") from err
            try:
                return await asyncio.wait_for(self._exchange(method, path, body), self.timeout)
            except (TimeoutError, OSError, EOFError, ValueError, asyncio.IncompleteReadError) as err:
                self.close()
                raise OSError(f"{method} {path}: {err!r}") from err

    async def _exchange(self, method, path, body):
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._reader, self._writer
        assert reader is not None
        head = f"{method} {self.base}{path} HTTP/1.1\r\n{self._head}"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        writer.write((head + "\r\n").encode() + (body or b""))
        status_line = await reader.readline()
        if not status_line:
            raise EOFError("closed by the server")
        status = int(status_line.split()[1])
        length, chunked, close = None, False, False
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                close = True
        if chunked:
            parts = []
            while True:
                size = int((await reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await reader.readline()
                    break
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            content = b"".join(parts)
        elif length is not None:
            content = await reader.readexactly(length)
        else:
            content = await reader.read()
            close = True
        if close:
            self.close()
        return status, content

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
