# JupyterHub configuration of the local classroom (make classroom, classroom/hub.py).
#
# Run as `jupyterhub -f classroom/jupyterhub_config.py` by the launcher (as
# root), which writes the settings file named by REJLAB_CLASSROOM_SETTINGS
# (ports, folders, password, accounts and their system users, memory) and
# the per-role Jupyter config folders. Every address is 127.0.0.1. Not a
# production configuration: the dummy authenticator, and a local process per
# user, each run as that user's own system user (made by the launcher).
import json
import os
import pwd

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid

c = get_config()  # noqa: F821  (JupyterHub provides get_config)

with open(os.environ["REJLAB_CLASSROOM_SETTINGS"], encoding="utf-8") as fh:
    settings = json.load(fh)
ports, state = settings["ports"], settings["state"]


class ClassroomSpawner(LocalProcessSpawner):
    """A local server per user, run as the user's system user, with its role's Jupyter config.

    The hub's account ``alice`` is the system user ``rejlabXXXX-alice``
    (``settings["system_users"]``), whose home is ``STATE/home/alice``.
    ``JUPYTER_CONFIG_PATH`` (the highest-priority config folders) holds the
    role's folder first (which nbgrader extensions are on: the instructor's or
    a student's, written by the launcher), then the hub-wide one (nbgrader's
    course_id and exchange).
    """

    @property
    def system_user(self):
        return pwd.getpwnam(settings["system_users"][self.user.name])

    def make_preexec_fn(self, name):
        return set_user_setuid(self.system_user.pw_name)

    def user_env(self, env):
        user = self.system_user
        home = user.pw_dir
        role = "instructor" if self.user.name == settings["instructor"] else "student"
        folders = [os.path.join(settings["config_dir"], name) for name in (role, "hub")]
        env.update({
            "USER": user.pw_name, "LOGNAME": user.pw_name, "HOME": home, "SHELL": user.pw_shell,
            # the hub's environment, bwrap (the grader's sandbox) and git, then the system's
            "PATH": settings["path"],
            "JUPYTER_CONFIG_DIR": os.path.join(home, ".jupyter"),
            "JUPYTER_CONFIG_PATH": os.pathsep.join(folders),
            "JUPYTER_DATA_DIR": os.path.join(home, ".local", "share", "jupyter"),
            "JUPYTER_RUNTIME_DIR": os.path.join(home, ".local", "share", "jupyter", "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": os.path.join(home, ".jupyter", "lab", "user-settings"),
            "JUPYTERLAB_WORKSPACES_DIR": os.path.join(home, ".jupyter", "lab", "workspaces"),
            "IPYTHONDIR": os.path.join(home, ".ipython"),
            "MPLCONFIGDIR": os.path.join(home, ".config", "matplotlib"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            # git trusts the course's repository (root's) when nbgitpuller clones it
            "GIT_CONFIG_SYSTEM": settings["git_config"],
        })
        return env


# The hub: public side through the proxy, its own API, the proxy's API, all on 127.0.0.1.
c.JupyterHub.bind_url = f"http://127.0.0.1:{ports['public']}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{ports['hub']}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{ports['proxy_api']}"
c.ConfigurableHTTPProxy.command = [settings["proxy_command"]]
c.ConfigurableHTTPProxy.pid_file = os.path.join(state, "hub", "proxy.pid")
c.JupyterHub.pid_file = os.path.join(state, "hub", "jupyterhub.pid")
c.JupyterHub.db_url = f"sqlite:///{os.path.join(state, 'hub', 'jupyterhub.sqlite')}"
c.JupyterHub.cookie_secret_file = os.path.join(state, "hub", "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True      # stopping the hub stops every user's server
c.JupyterHub.cleanup_proxy = True

# Accounts: one instructor (an admin) and the students, one printed password.
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = settings["password"]
c.Authenticator.allowed_users = {settings["instructor"], *settings["students"]}
c.Authenticator.admin_users = {settings["instructor"]}

# The launcher's service: reads the users and their servers (readiness, tests).
c.JupyterHub.services = [{"name": "classroom", "api_token": settings["service_token"]}]
c.JupyterHub.load_roles = [{"name": "classroom", "services": ["classroom"],
                            "scopes": ["list:users", "read:users", "read:servers"]}]

# Each user's server: JupyterLab in the hub's environment, started in the user's home.
c.JupyterHub.spawner_class = ClassroomSpawner
c.Spawner.cmd = [settings["singleuser"]]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
# Memory per user, as classroom/z2jh-values.yaml sizes it: the students' by default, the
# instructor's (larger: autograding runs in the instructor's server) through the same kind
# of hook as the values file's. A local process spawner cannot enforce it: JupyterHub
# passes it to the server (MEM_LIMIT, MEM_GUARANTEE), which shows it in the lab's status
# bar (jupyter-resource-usage).
memory = settings["memory"]
c.Spawner.mem_limit = memory["student"]["limit"]
c.Spawner.mem_guarantee = memory["student"]["guarantee"]


def instructor_memory(spawner):
    if spawner.user.name == settings["instructor"]:
        spawner.mem_limit = memory["instructor"]["limit"]
        spawner.mem_guarantee = memory["instructor"]["guarantee"]


c.Spawner.pre_spawn_hook = instructor_memory
