# A local stand-in for the proxy image compose names (nginx:1.27-alpine), which only a registry
# serves: Debian's nginx (1.22) with what compose's proxy service uses (envsubst for the project's
# template, wget for its healthcheck). make deploy-live and make image-check tag it
# nginx:1.27-alpine; compose then runs deploy/proxy/nginx.conf.template in it unchanged.
FROM debian:bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx-light gettext-base wget \
 && rm -rf /var/lib/apt/lists/*
EXPOSE 8080
CMD ["nginx", "-g", "daemon off;"]
