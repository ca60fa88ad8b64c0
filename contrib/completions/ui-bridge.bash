_ui__bridge() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="ui__bridge"
                ;;
            ui__bridge,approvals)
                cmd="ui__bridge__subcmd__approvals"
                ;;
            ui__bridge,audit)
                cmd="ui__bridge__subcmd__audit"
                ;;
            ui__bridge,completions)
                cmd="ui__bridge__subcmd__completions"
                ;;
            ui__bridge,doctor)
                cmd="ui__bridge__subcmd__doctor"
                ;;
            ui__bridge,help)
                cmd="ui__bridge__subcmd__help"
                ;;
            ui__bridge,man)
                cmd="ui__bridge__subcmd__man"
                ;;
            ui__bridge,schema)
                cmd="ui__bridge__subcmd__schema"
                ;;
            ui__bridge,serve)
                cmd="ui__bridge__subcmd__serve"
                ;;
            ui__bridge,service)
                cmd="ui__bridge__subcmd__service"
                ;;
            ui__bridge__subcmd__approvals,answer)
                cmd="ui__bridge__subcmd__approvals__subcmd__answer"
                ;;
            ui__bridge__subcmd__approvals,cancel-agent)
                cmd="ui__bridge__subcmd__approvals__subcmd__cancel__subcmd__agent"
                ;;
            ui__bridge__subcmd__approvals,help)
                cmd="ui__bridge__subcmd__approvals__subcmd__help"
                ;;
            ui__bridge__subcmd__approvals,list)
                cmd="ui__bridge__subcmd__approvals__subcmd__list"
                ;;
            ui__bridge__subcmd__approvals,resolve)
                cmd="ui__bridge__subcmd__approvals__subcmd__resolve"
                ;;
            ui__bridge__subcmd__approvals__subcmd__help,answer)
                cmd="ui__bridge__subcmd__approvals__subcmd__help__subcmd__answer"
                ;;
            ui__bridge__subcmd__approvals__subcmd__help,cancel-agent)
                cmd="ui__bridge__subcmd__approvals__subcmd__help__subcmd__cancel__subcmd__agent"
                ;;
            ui__bridge__subcmd__approvals__subcmd__help,help)
                cmd="ui__bridge__subcmd__approvals__subcmd__help__subcmd__help"
                ;;
            ui__bridge__subcmd__approvals__subcmd__help,list)
                cmd="ui__bridge__subcmd__approvals__subcmd__help__subcmd__list"
                ;;
            ui__bridge__subcmd__approvals__subcmd__help,resolve)
                cmd="ui__bridge__subcmd__approvals__subcmd__help__subcmd__resolve"
                ;;
            ui__bridge__subcmd__audit,help)
                cmd="ui__bridge__subcmd__audit__subcmd__help"
                ;;
            ui__bridge__subcmd__audit,query)
                cmd="ui__bridge__subcmd__audit__subcmd__query"
                ;;
            ui__bridge__subcmd__audit,tail)
                cmd="ui__bridge__subcmd__audit__subcmd__tail"
                ;;
            ui__bridge__subcmd__audit,verify)
                cmd="ui__bridge__subcmd__audit__subcmd__verify"
                ;;
            ui__bridge__subcmd__audit__subcmd__help,help)
                cmd="ui__bridge__subcmd__audit__subcmd__help__subcmd__help"
                ;;
            ui__bridge__subcmd__audit__subcmd__help,query)
                cmd="ui__bridge__subcmd__audit__subcmd__help__subcmd__query"
                ;;
            ui__bridge__subcmd__audit__subcmd__help,tail)
                cmd="ui__bridge__subcmd__audit__subcmd__help__subcmd__tail"
                ;;
            ui__bridge__subcmd__audit__subcmd__help,verify)
                cmd="ui__bridge__subcmd__audit__subcmd__help__subcmd__verify"
                ;;
            ui__bridge__subcmd__help,approvals)
                cmd="ui__bridge__subcmd__help__subcmd__approvals"
                ;;
            ui__bridge__subcmd__help,audit)
                cmd="ui__bridge__subcmd__help__subcmd__audit"
                ;;
            ui__bridge__subcmd__help,completions)
                cmd="ui__bridge__subcmd__help__subcmd__completions"
                ;;
            ui__bridge__subcmd__help,doctor)
                cmd="ui__bridge__subcmd__help__subcmd__doctor"
                ;;
            ui__bridge__subcmd__help,help)
                cmd="ui__bridge__subcmd__help__subcmd__help"
                ;;
            ui__bridge__subcmd__help,man)
                cmd="ui__bridge__subcmd__help__subcmd__man"
                ;;
            ui__bridge__subcmd__help,schema)
                cmd="ui__bridge__subcmd__help__subcmd__schema"
                ;;
            ui__bridge__subcmd__help,serve)
                cmd="ui__bridge__subcmd__help__subcmd__serve"
                ;;
            ui__bridge__subcmd__help,service)
                cmd="ui__bridge__subcmd__help__subcmd__service"
                ;;
            ui__bridge__subcmd__help__subcmd__approvals,answer)
                cmd="ui__bridge__subcmd__help__subcmd__approvals__subcmd__answer"
                ;;
            ui__bridge__subcmd__help__subcmd__approvals,cancel-agent)
                cmd="ui__bridge__subcmd__help__subcmd__approvals__subcmd__cancel__subcmd__agent"
                ;;
            ui__bridge__subcmd__help__subcmd__approvals,list)
                cmd="ui__bridge__subcmd__help__subcmd__approvals__subcmd__list"
                ;;
            ui__bridge__subcmd__help__subcmd__approvals,resolve)
                cmd="ui__bridge__subcmd__help__subcmd__approvals__subcmd__resolve"
                ;;
            ui__bridge__subcmd__help__subcmd__audit,query)
                cmd="ui__bridge__subcmd__help__subcmd__audit__subcmd__query"
                ;;
            ui__bridge__subcmd__help__subcmd__audit,tail)
                cmd="ui__bridge__subcmd__help__subcmd__audit__subcmd__tail"
                ;;
            ui__bridge__subcmd__help__subcmd__audit,verify)
                cmd="ui__bridge__subcmd__help__subcmd__audit__subcmd__verify"
                ;;
            ui__bridge__subcmd__help__subcmd__service,install)
                cmd="ui__bridge__subcmd__help__subcmd__service__subcmd__install"
                ;;
            ui__bridge__subcmd__help__subcmd__service,status)
                cmd="ui__bridge__subcmd__help__subcmd__service__subcmd__status"
                ;;
            ui__bridge__subcmd__help__subcmd__service,uninstall)
                cmd="ui__bridge__subcmd__help__subcmd__service__subcmd__uninstall"
                ;;
            ui__bridge__subcmd__service,help)
                cmd="ui__bridge__subcmd__service__subcmd__help"
                ;;
            ui__bridge__subcmd__service,install)
                cmd="ui__bridge__subcmd__service__subcmd__install"
                ;;
            ui__bridge__subcmd__service,status)
                cmd="ui__bridge__subcmd__service__subcmd__status"
                ;;
            ui__bridge__subcmd__service,uninstall)
                cmd="ui__bridge__subcmd__service__subcmd__uninstall"
                ;;
            ui__bridge__subcmd__service__subcmd__help,help)
                cmd="ui__bridge__subcmd__service__subcmd__help__subcmd__help"
                ;;
            ui__bridge__subcmd__service__subcmd__help,install)
                cmd="ui__bridge__subcmd__service__subcmd__help__subcmd__install"
                ;;
            ui__bridge__subcmd__service__subcmd__help,status)
                cmd="ui__bridge__subcmd__service__subcmd__help__subcmd__status"
                ;;
            ui__bridge__subcmd__service__subcmd__help,uninstall)
                cmd="ui__bridge__subcmd__service__subcmd__help__subcmd__uninstall"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        ui__bridge)
            opts="-h -V --help --version serve audit approvals doctor completions service schema man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals)
            opts="-h --approvals --socket --help list resolve cancel-agent answer help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__answer)
            opts="-h --approver --approvals --socket --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approver)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__cancel__subcmd__agent)
            opts="-h --reason --approvals --socket --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --reason)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__help)
            opts="list resolve cancel-agent answer help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__help__subcmd__answer)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__help__subcmd__cancel__subcmd__agent)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__help__subcmd__resolve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__list)
            opts="-h --json --approvals --socket --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__approvals__subcmd__resolve)
            opts="-h --approver --approvals --socket --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approver)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit)
            opts="-h --help tail query verify help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__help)
            opts="tail query verify help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__help__subcmd__query)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__help__subcmd__tail)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__help__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__query)
            opts="-h --audit --approvals --since --agent --decision --risk --json --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --decision)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --risk)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__tail)
            opts="-n -f -h --audit --approvals --lines --follow --json --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lines)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__audit__subcmd__verify)
            opts="-h --audit --approvals --expect-head --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --audit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expect-head)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__completions)
            opts="-h --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__doctor)
            opts="-h --approvals --socket --json --fix --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help)
            opts="serve audit approvals doctor completions service schema man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__approvals)
            opts="list resolve cancel-agent answer"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__approvals__subcmd__answer)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__approvals__subcmd__cancel__subcmd__agent)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__approvals__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__approvals__subcmd__resolve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__audit)
            opts="tail query verify"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__audit__subcmd__query)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__audit__subcmd__tail)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__audit__subcmd__verify)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__doctor)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__schema)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__service)
            opts="install uninstall status"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__service__subcmd__install)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__service__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__help__subcmd__service__subcmd__uninstall)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__man)
            opts="-h --out --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__schema)
            opts="-h --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__serve)
            opts="-h --approvals --socket --approval-timeout-ms --approver-command --accept-gateway-approvals --web --audit-sink --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --socket)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approval-timeout-ms)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approver-command)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --web)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --audit-sink)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service)
            opts="-h --approvals --help install uninstall status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__help)
            opts="install uninstall status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__help__subcmd__install)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__help__subcmd__uninstall)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__install)
            opts="-h --unit-dir --approvals --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --unit-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__status)
            opts="-h --unit-dir --approvals --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --unit-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ui__subcmd__bridge__subcmd__service__subcmd__uninstall)
            opts="-h --unit-dir --approvals --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --unit-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --approvals)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _ui__bridge -o nosort -o bashdefault -o default ui-bridge
else
    complete -F _ui__bridge -o bashdefault -o default ui-bridge
fi
