# One image for every Kinora process (docker-compose.yml; README "Deploying several processes"):
# KINORA_ROLE picks what a container does. Node 20 as on the development machines; the server runs
# its TypeScript through tsx, as `npm start` does.
FROM node:20-bookworm-slim
WORKDIR /srv/kinora/app
COPY package.json package-lock.json ./
# Dev dependencies stay: vite builds the web app (scripts/build-web.ts, the compose `setup` service).
RUN npm ci --no-audit --no-fund
COPY . .
ENV NODE_ENV=production PORT=8787 KINORA_DATA_DIR=/srv/kinora/data
EXPOSE 8787
# SIGTERM reaches node directly (no shell in between): claimed jobs go back to the queue.
CMD ["node", "--import", "tsx", "server/src/main.ts"]
